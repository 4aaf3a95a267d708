package org.jspecify.annotations;

import java.lang.annotation.*;

/** Stand-in so javac can read held-out sources without the jar. */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE_USE})
public @interface Nullable {}
