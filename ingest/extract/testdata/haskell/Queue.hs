-- | A banker's queue.
module Data.Queue (Queue, empty, push) where

import qualified Data.List as L
import Data.Maybe (fromMaybe)

data Queue a = Queue [a] [a]

newtype Size = Size Int

type Items a = [a]

class Container f where
  size :: f a -> Int

empty :: Queue a
empty = Queue [] []

push :: a -> Queue a -> Queue a
push x (Queue f b) = check (Queue f (x : b))

check :: Queue a -> Queue a
check (Queue [] b) = Queue (L.reverse b) []
check q = q
