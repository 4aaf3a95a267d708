package com.google.re2j;

/** Stand-in so javac can read held-out sources without the jar. */
public final class Pattern {
  public static Pattern compile(String regex) {
    return new Pattern();
  }

  public Matcher matcher(CharSequence input) {
    return new Matcher();
  }
}
