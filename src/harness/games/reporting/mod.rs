//! A match's report: Markdown, analysis.json, verdicts, the charts, and the report of a match played at several levels.

pub mod charts;
pub mod effort;
pub mod report;
