//! Maintenance windows (维护窗口): when a carrier, a carrier in one province, or one channel
//! takes no top-ups. A window happens once (a start and an end) or recurs in Beijing time:
//! daily, weekly on a weekday, or monthly on a day of the month, over a span of the day that
//! may cross midnight (23:00–01:00 ends on the next day). A monthly day beyond a month's
//! length falls on that month's last day, so "每月 31 日" happens every month.
//! Pure maths: `platform::windows` holds the administrators' windows in memory.

use super::{Carrier, DAY_MS, beijing_day, beijing_day_start};

const MINUTE_MS: i64 = 60_000;
pub const DAY_MINUTES: u32 = 24 * 60;

/// How a window repeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recurrence {
    /// Once, from `start` to `end` (milliseconds).
    Once { start: i64, end: i64 },
    /// Every day over the span.
    Daily { span: DaySpan },
    /// Every week on `weekday` (1 Monday … 7 Sunday).
    Weekly { weekday: u8, span: DaySpan },
    /// Every month on `day` (1 to 31; the last day in shorter months).
    Monthly { day: u8, span: DaySpan },
}

/// A span of a Beijing day in minutes after midnight: `end` at or before `start` ends on
/// the next day. Zero length is refused at parsing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DaySpan {
    pub start: u32,
    pub end: u32,
}

impl DaySpan {
    /// A span from `HH:MM` minutes; None when a minute is out of the day or the span is empty.
    pub fn new(start: u32, end: u32) -> Option<Self> {
        (start < DAY_MINUTES && end < DAY_MINUTES && start != end).then_some(Self { start, end })
    }

    pub fn crosses_midnight(self) -> bool {
        self.end < self.start
    }

    fn length_ms(self) -> i64 {
        let minutes = if self.crosses_midnight() { self.end + DAY_MINUTES - self.start } else { self.end - self.start };
        i64::from(minutes) * MINUTE_MS
    }
}

/// `HH:MM` (00:00 to 23:59) as minutes after midnight.
pub fn parse_clock(text: &str) -> Option<u32> {
    let (hours, minutes) = text.trim().split_once(':')?;
    if hours.len() != 2 || minutes.len() != 2 {
        return None;
    }
    let (hours, minutes): (u32, u32) = (hours.parse().ok()?, minutes.parse().ok()?);
    (hours < 24 && minutes < 60).then_some(hours * 60 + minutes)
}

pub fn clock(minutes: u32) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// What a window closes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowScope {
    /// Every order for numbers of the carrier.
    Carrier(Carrier),
    /// Orders for the carrier's numbers of one province (GB/T 2260 code).
    Province(Carrier, u32),
    /// One channel: routing skips it, others may take its orders.
    Channel(i64),
}

/// (year, month 1-12, day, weekday 1-7 Monday first, days in the month) of a Beijing day.
fn calendar(day: i64) -> (i32, u8, u8, u8, u8) {
    let date = time::Date::from_julian_day((day + 2_440_588) as i32).unwrap_or(time::Date::MIN);
    let month = date.month();
    (date.year(), u8::from(month), date.day(), date.weekday().number_from_monday(), month.length(date.year()))
}

impl Recurrence {
    /// Whether a recurring window starts on this Beijing day.
    fn starts_on(&self, day: i64) -> bool {
        let (_, _, month_day, weekday, month_length) = calendar(day);
        match *self {
            Recurrence::Once { .. } => false,
            Recurrence::Daily { .. } => true,
            Recurrence::Weekly { weekday: wanted, .. } => weekday == wanted,
            Recurrence::Monthly { day: wanted, .. } => month_day == wanted.min(month_length),
        }
    }

    fn span(&self) -> Option<DaySpan> {
        match *self {
            Recurrence::Once { .. } => None,
            Recurrence::Daily { span } | Recurrence::Weekly { span, .. } | Recurrence::Monthly { span, .. } => {
                Some(span)
            }
        }
    }

    /// The occurrences `[start, end)` that overlap `[from, to)`, in order.
    pub fn occurrences(&self, from: i64, to: i64) -> Vec<(i64, i64)> {
        if let Recurrence::Once { start, end } = *self {
            return if start < to && end > from { vec![(start, end)] } else { Vec::new() };
        }
        let Some(span) = self.span() else { return Vec::new() };
        // An occurrence that started the day before may still run (a span over midnight).
        let mut found = Vec::new();
        for day in beijing_day(from) - 1..=beijing_day(to) {
            if !self.starts_on(day) {
                continue;
            }
            let start = beijing_day_start(day) + i64::from(span.start) * MINUTE_MS;
            let end = start + span.length_ms();
            if start < to && end > from {
                found.push((start, end));
            }
        }
        found
    }

    /// The occurrence running at `at`: its start and end.
    pub fn running_at(&self, at: i64) -> Option<(i64, i64)> {
        self.occurrences(at, at + 1).into_iter().next()
    }

    /// Whether it can never happen again after `at` (a one-off that ended).
    pub fn over_by(&self, at: i64) -> bool {
        matches!(*self, Recurrence::Once { end, .. } if end <= at)
    }
}

/// A window as the schedule holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    pub id: i64,
    pub title: String,
    pub scope: WindowScope,
    pub recurrence: Recurrence,
}

/// The window that closes something now, and when it opens again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Closed {
    pub window_id: i64,
    pub title: String,
    pub until: i64,
}

impl Closed {
    /// When it opens again, as the refusal says it: Beijing time to the minute.
    pub fn until_minute(&self) -> String {
        let until = super::beijing_time(self.until);
        until.get(..16).unwrap_or(&until).to_string()
    }
}

/// Every window, for questions at a time `at`.
#[derive(Debug, Clone, Default)]
pub struct Schedule {
    windows: Vec<Window>,
}

impl Schedule {
    pub fn new(windows: Vec<Window>) -> Self {
        Self { windows }
    }

    pub fn windows(&self) -> &[Window] {
        &self.windows
    }

    /// Of the windows running at `at` that `covers` picks, the one that ends last.
    fn closing(&self, at: i64, covers: impl Fn(&WindowScope) -> bool) -> Option<Closed> {
        self.windows
            .iter()
            .filter(|window| covers(&window.scope))
            .filter_map(|window| window.recurrence.running_at(at).map(|(_, end)| (window, end)))
            .max_by_key(|(window, end)| (*end, -window.id))
            .map(|(window, until)| Closed { window_id: window.id, title: window.title.clone(), until })
    }

    /// Whether any window runs at `at`: placing asks nothing more when none does.
    pub fn any_running(&self, at: i64) -> bool {
        self.windows.iter().any(|window| window.recurrence.running_at(at).is_some())
    }

    /// Whether a channel window runs at `at` (only then does placing need a product's channels).
    pub fn channel_window_running(&self, at: i64) -> bool {
        self.windows
            .iter()
            .any(|window| matches!(window.scope, WindowScope::Channel(_)) && window.recurrence.running_at(at).is_some())
    }

    /// The window closing orders for numbers of `carrier` in `province` at `at`.
    pub fn closing_number(&self, carrier: Carrier, province: Option<u32>, at: i64) -> Option<Closed> {
        self.closing(at, |scope| match *scope {
            WindowScope::Carrier(closed) => closed == carrier,
            WindowScope::Province(closed, code) => closed == carrier && Some(code) == province,
            WindowScope::Channel(_) => false,
        })
    }

    /// The window closing a channel at `at`.
    pub fn closing_channel(&self, channel_id: i64, at: i64) -> Option<Closed> {
        self.closing(at, |scope| *scope == WindowScope::Channel(channel_id))
    }

    /// Occurrences overlapping `[from, to)`, by start: (window, start, end).
    pub fn upcoming(&self, from: i64, to: i64) -> Vec<(&Window, i64, i64)> {
        let mut found: Vec<(&Window, i64, i64)> = self
            .windows
            .iter()
            .flat_map(|window| window.recurrence.occurrences(from, to).into_iter().map(move |(s, e)| (window, s, e)))
            .collect();
        found.sort_by_key(|(window, start, _)| (*start, window.id));
        found
    }
}

/// Days after which the console and the open API stop listing occurrences.
pub const UPCOMING_DAYS: i64 = 7;

pub fn upcoming_until(from: i64) -> i64 {
    from + UPCOMING_DAYS * DAY_MS
}

#[cfg(test)]
#[path = "windows_tests.rs"]
mod tests;
