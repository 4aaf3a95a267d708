package org.jspecify.annotations;

/** Stand-in so javac can read held-out sources without the jar. */
public @interface NullMarked {}
