//! Texts of maintenance windows (维护窗口, `supply/windows.rs`), in both locales: the
//! administrators' form and the refusal of a fast order while its channels are closed.

use super::Locale;
use std::borrow::Cow;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WindowMessage {
    /// Every channel that could take a fast order is in a window: `title` ends at `until`
    /// (Beijing time, `YYYY-MM-DD HH:MM`).
    Closed {
        title: String,
        until: String,
    },
    TitleInvalid {
        max: usize,
    },
    NoteTooLong {
        max: usize,
    },
    /// The scope names no known carrier, province or channel, or mixes them.
    ScopeInvalid,
    /// A one-off window's end is not after its start.
    EndBeforeStart,
    /// A recurring window's weekday, day of month or times are out of range, or its span
    /// is empty.
    RecurrenceInvalid,
}

impl WindowMessage {
    pub fn key(&self) -> &'static str {
        use WindowMessage::*;
        match self {
            Closed { .. } => "order.channel.window",
            TitleInvalid { .. } => "window.title.invalid",
            NoteTooLong { .. } => "window.note.too_long",
            ScopeInvalid => "window.scope.invalid",
            EndBeforeStart => "window.end_before_start",
            RecurrenceInvalid => "window.recurrence.invalid",
        }
    }

    pub fn text(&self, locale: Locale) -> Cow<'static, str> {
        use WindowMessage::*;
        let zh = locale == Locale::ZhCn;
        match self {
            Closed { title, until } => match zh {
                true => format!("维护窗口「{title}」期间暂停快充下单，预计 {until}（北京时间）结束，请届时再试").into(),
                false => format!(
                    "fast top-ups are paused during the maintenance window \"{title}\", which ends at {until} (Beijing time); try again then"
                )
                .into(),
            },
            TitleInvalid { max } => match zh {
                true => format!("请填写名称，最多 {max} 个字").into(),
                false => format!("give a title of at most {max} characters").into(),
            },
            NoteTooLong { max } => match zh {
                true => format!("说明最多 {max} 个字").into(),
                false => format!("the note must be at most {max} characters").into(),
            },
            ScopeInvalid => match zh {
                true => "请选择范围：运营商、运营商与省份，或一个已有的通道".into(),
                false => "choose the scope: a carrier, a carrier and a province, or an existing channel".into(),
            },
            EndBeforeStart => match zh {
                true => "结束时间须晚于开始时间".into(),
                false => "the end must be after the start".into(),
            },
            RecurrenceInvalid => match zh {
                true => "请检查重复方式：每周须选星期一至星期日，每月须选 1 至 31 日，时间为 HH:MM 且开始与结束不同".into(),
                false => "check the repetition: a weekday 1 to 7 for weekly, a day 1 to 31 for monthly, times as HH:MM with the end not equal to the start".into(),
            },
        }
    }
}
