//! Small text helpers for what the judge prints.

/// `text` cut to `max` characters, with `…` when something was cut.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(max).collect::<String>())
    }
}
