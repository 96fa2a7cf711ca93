//! How numbers and times are written, in one place for the terminal, the Markdown, the CSV
//! and the charts.

use std::time::Duration;

/// `12,345,678`.
pub fn thousands(n: u64) -> String {
    grouped(n, ',')
}

/// `4.865.609`: the documents' thousands separator.
pub fn document_number(n: u64) -> String {
    grouped(n, '.')
}

fn grouped(n: u64, separator: char) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(separator);
        }
        out.push(c);
    }
    out
}

/// Time as the documents print it, `mm:ss`, rounded to the nearest second.
pub fn mm_ss(time: Duration) -> String {
    let secs = time.as_secs_f64().round() as u64;
    format!("{:02}:{:02}", secs / 60, secs % 60)
}

/// A number with an SI suffix, for log axes: 1k, 10M, 0.25.
pub fn si(v: f64) -> String {
    let (scaled, suffix) = match v.abs() {
        a if a >= 1e9 => (v / 1e9, "G"),
        a if a >= 1e6 => (v / 1e6, "M"),
        a if a >= 1e3 => (v / 1e3, "k"),
        _ => (v, ""),
    };
    if (scaled - scaled.round()).abs() < 1e-9 {
        format!("{scaled:.0}{suffix}")
    } else if scaled.abs() >= 1.0 {
        format!("{scaled:.1}{suffix}")
    } else {
        // Small values (sub-millisecond times): up to three significant digits.
        let text = format!("{scaled:.3}");
        text.trim_end_matches('0').to_string()
    }
}

/// `p=0.0404`, or `p<0.0001` below four decimals.
pub fn p_value(p: f64) -> String {
    if p < 0.0001 {
        "p<0.0001".into()
    } else {
        format!("p={p:.4}")
    }
}

/// `estimate [low, high]` with `digits` decimals.
pub fn interval(i: &crate::harness::compare::Interval, digits: usize) -> String {
    format!(
        "{:.d$} [{:.d$}, {:.d$}]",
        i.estimate,
        i.low,
        i.high,
        d = digits
    )
}

/// At most `max` characters of a line a user gave (an input line quoted in an error), cut with
/// the count of what was left out: a megabyte line is not echoed whole.
pub fn clip(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max).collect();
    format!("{kept}… ({} more characters)", count - max)
}

/// A word as a shell reads it back: as it is when it holds only characters no shell treats
/// specially (`cmd=./dev`, `tc=8+0.08`: a command a user keeps stays readable), else quoted by
/// `shlex`. `None` for a word no shell can hold (a NUL byte).
pub fn for_shell(word: &str) -> Option<String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./+=:,@%^".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return Some(word.to_string());
    }
    shlex::try_quote(word).ok().map(|q| q.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_times() {
        assert_eq!(thousands(12_345_678), "12,345,678");
        assert_eq!(thousands(999), "999");
        assert_eq!(document_number(4_865_609), "4.865.609");
        assert_eq!(mm_ss(Duration::from_millis(65_400)), "01:05");
        assert_eq!(mm_ss(Duration::from_millis(65_600)), "01:06");
        assert_eq!(si(10_000.0), "10k");
        assert_eq!(si(2_500_000.0), "2.5M");
        assert_eq!(si(0.25), "0.25");
        assert_eq!(p_value(0.04041), "p=0.0404");
        assert_eq!(p_value(0.00001), "p<0.0001");
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("abcdef", 2), "ab… (4 more characters)");
    }
}
