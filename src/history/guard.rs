//! Reading stored data without trusting it: polars' parquet reader
//! panics on some damaged files (`thrift bool field`, an index out of
//! bounds in a bitmap), and a history part is data from disk. [`guarded`]
//! runs such a read where a panic becomes an error, so a damaged part is
//! named and set aside instead of taking every command down (exit 101).

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

thread_local! {
    /// Set while this thread runs a guarded read: its panics are errors
    /// said by the caller, not printed by the default hook.
    static GUARDED: Cell<bool> = const { Cell::new(false) };
}

/// Installs, once, a panic hook that stays quiet for guarded reads and
/// hands every other panic to the hook that was there.
fn quiet_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !GUARDED.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

/// Runs `f`; its error, or a panic inside it, comes back as the error's
/// text. `f` reads stored data only: what it changed before a panic is
/// dropped with it, or (a visitor's state) holds whole runs only.
pub(crate) fn guarded<T>(f: impl FnOnce() -> anyhow::Result<T>) -> Result<T, String> {
    quiet_hook();
    let was = GUARDED.with(|g| g.replace(true));
    let out = catch_unwind(AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(was));
    match out {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(format!("{e:#}")),
        Err(payload) => {
            let text = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown cause".into());
            Err(format!("the parquet reader failed on it ({text})"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_error_and_values_pass() {
        assert_eq!(guarded(|| Ok(7)), Ok(7));
        let e = guarded::<()>(|| panic!("thrift bool field")).unwrap_err();
        assert!(e.contains("thrift bool field"), "{e}");
        let e = guarded::<()>(|| anyhow::bail!("no rows")).unwrap_err();
        assert_eq!(e, "no rows");
        // The flag is down again: later panics are not swallowed.
        assert!(!GUARDED.with(Cell::get));
    }
}
