use super::*;

/// Milliseconds of a Beijing wall-clock time.
fn at(year: i32, month: u8, day: u8, hour: u8, minute: u8) -> i64 {
    let date = time::Date::from_calendar_date(year, time::Month::try_from(month).unwrap(), day).unwrap();
    let moment = date.with_hms(hour, minute, 0).unwrap().assume_offset(time::macros::offset!(+8));
    (moment.unix_timestamp_nanos() / 1_000_000) as i64
}

fn span(start: &str, end: &str) -> DaySpan {
    DaySpan::new(parse_clock(start).unwrap(), parse_clock(end).unwrap()).unwrap()
}

#[test]
fn clocks_and_spans_are_checked() {
    assert_eq!(parse_clock("00:00"), Some(0));
    assert_eq!(parse_clock("23:59"), Some(1439));
    assert_eq!(parse_clock("24:00"), None);
    assert_eq!(parse_clock("7:00"), None);
    assert_eq!(parse_clock("07:60"), None);
    assert_eq!(clock(61), "01:01");
    assert!(DaySpan::new(60, 60).is_none(), "an empty span");
    assert!(DaySpan::new(23 * 60, 60).unwrap().crosses_midnight());
}

#[test]
fn a_daily_span_over_midnight_runs_into_the_next_day() {
    let rule = Recurrence::Daily { span: span("23:00", "01:00") };
    assert_eq!(rule.running_at(at(2026, 3, 2, 0, 30)), Some((at(2026, 3, 1, 23, 0), at(2026, 3, 2, 1, 0))));
    assert_eq!(rule.running_at(at(2026, 3, 2, 23, 0)), Some((at(2026, 3, 2, 23, 0), at(2026, 3, 3, 1, 0))));
    assert_eq!(rule.running_at(at(2026, 3, 2, 1, 0)), None, "the end is open");
    assert_eq!(rule.running_at(at(2026, 3, 2, 12, 0)), None);
}

#[test]
fn weekly_on_its_weekday_only() {
    // 2026-03-02 is a Monday.
    let rule = Recurrence::Weekly { weekday: 1, span: span("02:00", "04:00") };
    assert!(rule.running_at(at(2026, 3, 2, 3, 0)).is_some());
    assert!(rule.running_at(at(2026, 3, 3, 3, 0)).is_none());
    assert!(rule.running_at(at(2026, 3, 9, 2, 0)).is_some());
    // Sunday 23:00 to Monday 01:00 runs on Monday early.
    let sunday = Recurrence::Weekly { weekday: 7, span: span("23:00", "01:00") };
    assert_eq!(sunday.running_at(at(2026, 3, 2, 0, 10)).map(|(_, end)| end), Some(at(2026, 3, 2, 1, 0)));
}

#[test]
fn monthly_on_the_first_and_on_month_ends() {
    let first = Recurrence::Monthly { day: 1, span: span("00:00", "02:00") };
    assert!(first.running_at(at(2026, 2, 1, 1, 59)).is_some());
    assert!(first.running_at(at(2026, 2, 2, 1, 0)).is_none());
    // The 31st falls on the last day of shorter months, and crosses into the next month.
    let last = Recurrence::Monthly { day: 31, span: span("23:00", "01:00") };
    assert_eq!(last.running_at(at(2026, 3, 1, 0, 30)), Some((at(2026, 2, 28, 23, 0), at(2026, 3, 1, 1, 0))));
    assert!(last.running_at(at(2028, 2, 29, 23, 30)).is_some(), "a leap year's February");
    assert!(last.running_at(at(2026, 4, 30, 23, 30)).is_some());
    assert!(last.running_at(at(2026, 1, 30, 23, 30)).is_none(), "January has a 31st");
    assert!(last.running_at(at(2026, 1, 31, 23, 30)).is_some());
    assert!(last.running_at(at(2027, 1, 1, 0, 30)).is_some(), "31 December into the new year");
}

#[test]
fn once_is_its_own_interval_and_can_be_over() {
    let rule = Recurrence::Once { start: 1_000, end: 2_000 };
    assert_eq!(rule.running_at(1_000), Some((1_000, 2_000)));
    assert_eq!(rule.running_at(2_000), None);
    assert!(rule.over_by(2_000));
    assert!(!Recurrence::Daily { span: span("01:00", "02:00") }.over_by(i64::MAX / 2));
}

#[test]
fn the_schedule_answers_for_numbers_and_channels_with_the_latest_end() {
    let now = at(2026, 3, 2, 0, 30);
    let windows = vec![
        Window {
            id: 1,
            title: "移动全国".into(),
            scope: WindowScope::Carrier(Carrier::Mobile),
            recurrence: Recurrence::Daily { span: span("00:00", "01:00") },
        },
        Window {
            id: 2,
            title: "广东移动".into(),
            scope: WindowScope::Province(Carrier::Mobile, 440_000),
            recurrence: Recurrence::Daily { span: span("00:00", "02:00") },
        },
        Window {
            id: 3,
            title: "渠道 7".into(),
            scope: WindowScope::Channel(7),
            recurrence: Recurrence::Once { start: now - 10, end: now + 10 },
        },
    ];
    let schedule = Schedule::new(windows);
    assert!(schedule.any_running(now));
    assert!(schedule.channel_window_running(now));
    let guangdong = schedule.closing_number(Carrier::Mobile, Some(440_000), now).unwrap();
    assert_eq!((guangdong.window_id, guangdong.until), (2, at(2026, 3, 2, 2, 0)));
    assert_eq!(schedule.closing_number(Carrier::Mobile, None, now).unwrap().window_id, 1);
    assert!(schedule.closing_number(Carrier::Unicom, Some(440_000), now).is_none());
    assert_eq!(schedule.closing_channel(7, now).unwrap().until, now + 10);
    assert!(schedule.closing_channel(8, now).is_none());
    let later = at(2026, 3, 2, 12, 0);
    assert!(!schedule.any_running(later));
    // The next seven days: the two daily windows each day, the one-off already running.
    let upcoming = schedule.upcoming(now, upcoming_until(now));
    assert_eq!(upcoming.iter().filter(|(window, _, _)| window.id == 2).count(), 8);
    assert_eq!(upcoming[0].1, at(2026, 3, 2, 0, 0));
}
