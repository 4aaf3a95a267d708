(* A functional stack. *)
open Printf

type 'a t = 'a list

exception Empty

let empty = []

let push x s = x :: s

let pop = function
  | [] -> raise Empty
  | x :: rest -> (x, rest)

module Counter = struct
  let count s = List.length s
end

let () =
  let s = push 1 empty in
  printf "%d\n" (Counter.count s)
