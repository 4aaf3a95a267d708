//! Key-value store with pluggable backends.
use std::collections::HashMap;
use std::fmt::{self, Display};
use crate::backend::{Backend, Memory as Mem};
use serde::*;

mod codec;

pub const MAX_KEYS: usize = 1024;
static mut COUNTER: u32 = 0;

/// A typed store.
#[derive(Debug, Clone)]
pub struct Store<B: Backend> {
    backend: B,
    cache: Cache,
    index: HashMap<String, Entry>,
}

pub(crate) enum Entry {
    Value(Bytes),
    Tombstone,
}

pub trait Backend: Send + fmt::Debug {
    type Key;
    fn get(&self, key: &str) -> Option<Bytes>;
    fn put(&mut self, key: &str, value: Bytes) {
        self.flush();
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;

impl<B: Backend> Store<B> {
    pub fn new(backend: B) -> Self {
        let cache = Cache::with_capacity(16);
        Store { backend, cache, index: HashMap::new() }
    }

    pub async fn get(&self, key: &str) -> Option<Bytes> {
        self.cache.lookup(key);
        let entry = Entry::Tombstone;
        let m = Mem::default();
        m.touch();
        self.backend.get(key).map(|b| decode(b))
    }

    fn helper() {
        Self::new(Mem::default());
        println!("{}", render(1));
        codec::encode(1);
        my_macro!(x);
    }
}

impl Display for Store<Mem> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "store")
    }
}

impl Drop for Remote {
    fn drop(&mut self) {}
}

macro_rules! my_macro {
    ($x:expr) => {};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_values() {
        let s = Store::new(Mem::default());
        s.get("k");
    }

    #[tokio::test]
    async fn async_case() {}
}
