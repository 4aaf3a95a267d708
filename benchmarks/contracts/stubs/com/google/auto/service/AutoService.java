package com.google.auto.service;

/** Stand-in so javac can read held-out sources without the jar. */
public @interface AutoService {
  Class<?>[] value();
}
