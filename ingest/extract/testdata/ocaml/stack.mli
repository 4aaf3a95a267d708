type 'a t

val empty : 'a t
val push : 'a -> 'a t -> 'a t

module type ORDERED = sig
  type t
  val compare : t -> t -> int
end
