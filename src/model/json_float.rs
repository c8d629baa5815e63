//! An `f64` written as serde_json writes it, by the row writer and the
//! percentiles: most of a row's figures are whole numbers.

/// An `f64` as serde_json writes it. A whole number below 10^15 (most of
/// a row's figures: nanoseconds, counts, percentiles' values) is its
/// integer's digits and `.0`, the integer written as serde_json writes
/// one; anything else (a fraction, `-0.0`, a large or non-finite value)
/// through serde_json's shortest-float writer, which took 250
/// instructions a number.
#[inline]
pub(super) fn put(v: f64, out: &mut Vec<u8>) -> serde_json::Result<()> {
    match writer_choice() {
        WriterChoice::Hand => {}
        WriterChoice::Zmij if v.is_finite() => {
            out.extend_from_slice(zmij::Buffer::new().format_finite(v).as_bytes());
            return Ok(());
        }
        WriterChoice::Serde | WriterChoice::Zmij => {
            return serde::Serialize::serialize(&v, &mut serde_json::Serializer::new(out));
        }
    }
    if v.fract() == 0.0 && v.abs() < 1e15 && !(v == 0.0 && v.is_sign_negative()) {
        serde::Serialize::serialize(&(v as i64), &mut serde_json::Serializer::new(&mut *out))?;
        out.extend_from_slice(b".0");
        return Ok(());
    }
    serde::Serialize::serialize(&v, &mut serde_json::Serializer::new(out))
}

/// The writer `put` uses, for the measurement of benches/ingest-speed.md
/// (#57): `NVCMP_FLOAT_WRITER=hand|serde|zmij`, read once; `hand` when
/// unset.
#[derive(Clone, Copy)]
enum WriterChoice {
    Hand,
    Serde,
    Zmij,
}

fn writer_choice() -> WriterChoice {
    static CHOICE: std::sync::OnceLock<WriterChoice> = std::sync::OnceLock::new();
    *CHOICE.get_or_init(|| match std::env::var("NVCMP_FLOAT_WRITER").as_deref() {
        Ok("serde") => WriterChoice::Serde,
        Ok("zmij") => WriterChoice::Zmij,
        _ => WriterChoice::Hand,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of `f64` is written byte for byte as serde_json writes it:
    /// whole numbers on both sides of 10^15 and 2^53, signed zeros, powers
    /// of two and ten, fractions, non-finite values, random bit patterns.
    #[test]
    fn an_f64_is_written_as_serde_json_writes_it() {
        let mut values: Vec<f64> = vec![0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY];
        values.extend((0..20_000).map(f64::from));
        values.extend((0..20_000).map(|i| -f64::from(i)));
        for e in 0..64 {
            let p = 2f64.powi(e);
            values.extend([p, p - 1.0, p + 1.0, -p, p / 3.0]);
        }
        for e in 0..=22 {
            let p = 10f64.powi(e);
            values.extend([p, p - 1.0, p + 1.0, -p, p * 0.999_999_999_999_9, p * 1.5]);
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..100_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let bits = f64::from_bits(state);
            let whole = ((state >> 11) % 2_000_000_000_000_000) as f64;
            values.extend([bits, whole, -whole, whole / 7.0, whole * 1e-3]);
        }
        let mut whole_numbers = 0;
        for v in values {
            let mut got = Vec::new();
            put(v, &mut got).unwrap();
            let want = serde_json::to_vec(&v).unwrap();
            assert_eq!(
                got,
                want,
                "{v:?}: {} against {}",
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want)
            );
            whole_numbers += usize::from(v.fract() == 0.0 && v.abs() < 1e15);
        }
        assert!(whole_numbers > 100_000, "{whole_numbers}");
    }
}
