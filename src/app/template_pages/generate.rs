//! Deterministic generators of the demo data (the demo entities and their constants).
//!
//! Every list is drawn from a small pseudo-random sequence seeded by the Beijing day and
//! the list's name, so a page shows the same data all day (reloads, paging and filters
//! agree with each other) and new data the next day. Nothing is stored.

use crate::domain::{DAY_MS, beijing_date, beijing_day, beijing_day_start, beijing_time};
use crate::i18n::{Locale, template as words};
use serde::Serialize;
use utoipa::ToSchema;

/// The policy list always has 55 rows.
pub const POLICY_TOTAL: usize = 55;
/// The content series covers 8 days.
pub const CONTENT_DAYS: i64 = 8;

/// splitmix64: tiny, well mixed, and the same on every platform.
pub struct Sequence(u64);

impl Sequence {
    pub fn new(day: i64, list: &str) -> Self {
        let mut seed = day as u64 ^ 0x9E37_79B9_7F4A_7C15;
        for byte in list.bytes() {
            seed = seed.rotate_left(5) ^ u64::from(byte);
        }
        Self(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `low..=high`.
    pub fn between(&mut self, low: i64, high: i64) -> i64 {
        let span = (high - low + 1) as u64;
        low + (self.next() % span) as i64
    }

    pub fn index(&mut self, len: usize) -> usize {
        (self.next() % len as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Today's Beijing day of a moment.
pub fn day_of(now_millis: i64) -> i64 {
    beijing_day(now_millis)
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ContentPoint {
    /// `YYYY-MM-DD`.
    pub x: String,
    pub y: i64,
}

/// The 8 days up to and including `day`, oldest first.
pub fn content_data(day: i64) -> Vec<ContentPoint> {
    let mut sequence = Sequence::new(day, "content-data");
    (0..CONTENT_DAYS)
        .map(|back| ContentPoint {
            x: beijing_date(day - (CONTENT_DAYS - 1) + back),
            y: sequence.between(1_000, 5_000),
        })
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PopularType {
    Text,
    Image,
    Video,
}

impl PopularType {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "text" => Some(Self::Text),
            "image" => Some(Self::Image),
            "video" => Some(Self::Video),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Image => "image",
            Self::Video => "video",
        }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PopularItem {
    pub key: i64,
    pub click_number: i64,
    pub title: String,
    /// Day-on-day change in percent; negative is a fall.
    pub increases: i64,
}

pub fn popular(day: i64, kind: PopularType, locale: Locale) -> Vec<PopularItem> {
    let mut sequence = Sequence::new(day, kind.name());
    // Each type its own order of the titles, every title once.
    let offset = sequence.index(words::POPULAR_TITLES.len());
    let mut items: Vec<PopularItem> = (0..words::POPULAR_TITLES.len())
        .map(|index| PopularItem {
            key: index as i64 + 1,
            click_number: sequence.between(1_000, 500_000),
            title: words::POPULAR_TITLES.pick(locale, index + offset).to_string(),
            increases: sequence.between(-30, 80),
        })
        .collect();
    // Popular means most clicked first.
    items.sort_by_key(|item| std::cmp::Reverse(item.click_number));
    items
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChatItem {
    pub id: i64,
    pub username: String,
    pub content: String,
    /// `HH:MM`.
    pub time: String,
    pub is_collect: bool,
}

pub fn chat(day: i64, locale: Locale) -> Vec<ChatItem> {
    let mut sequence = Sequence::new(day, "chat");
    let mut minute = sequence.between(8 * 60, 9 * 60);
    (0..8)
        .map(|index| {
            minute += sequence.between(3, 40);
            ChatItem {
                id: index + 1,
                username: words::CHAT_NAMES.pick(locale, sequence.index(words::CHAT_NAMES.len())).to_string(),
                content: words::CHAT_CONTENTS.pick(locale, sequence.index(words::CHAT_CONTENTS.len())).to_string(),
                time: format!("{:02}:{:02}", (minute / 60) % 24, minute % 60),
                is_collect: sequence.chance(30),
            }
        })
        .collect()
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LabelValue {
    /// `pendingInspection`, `backlogHours` or `pendingSampling`; the console names them.
    pub label: String,
    pub value: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct QualityInspection {
    pub id: i64,
    pub name: String,
    pub title: String,
    /// When the queue was last refreshed, `YYYY-MM-DD HH:MM:SS` Beijing time.
    pub description: String,
    pub data: Vec<LabelValue>,
}

pub fn quality_inspection(day: i64, now_millis: i64, locale: Locale) -> Vec<QualityInspection> {
    let mut sequence = Sequence::new(day, "quality-inspection");
    (0..words::QUEUE_NAMES.len())
        .map(|index| {
            let name = words::QUEUE_NAMES.pick(locale, index).to_string();
            QualityInspection {
                id: index as i64 + 1,
                title: name.clone(),
                name,
                description: beijing_time(now_millis - sequence.between(0, 3_600) * 1_000),
                data: vec![
                    LabelValue { label: "pendingInspection".into(), value: sequence.between(0, 2_000) },
                    LabelValue { label: "backlogHours".into(), value: sequence.between(0, 72) },
                    LabelValue { label: "pendingSampling".into(), value: sequence.between(0, 500) },
                ],
            }
        })
        .collect()
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ServiceItem {
    pub id: i64,
    /// `code`, `bulb`, `bar-chart`, `notification`, `picture` or `audio`.
    pub icon: String,
    pub title: String,
    pub description: String,
    pub enable: bool,
    /// Always `button` for services.
    pub action_type: String,
    /// Services with a subscription: its expiry, `YYYY-MM-DD`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
}

const SERVICE_ICONS: [&str; 6] = ["code", "bulb", "bar-chart", "notification", "picture", "audio"];

pub fn services(day: i64, locale: Locale) -> Vec<ServiceItem> {
    let mut sequence = Sequence::new(day, "the-service");
    (0..words::SERVICE_TITLES.len())
        .map(|index| {
            let enable = sequence.chance(50);
            ServiceItem {
                id: index as i64 + 1,
                icon: SERVICE_ICONS[index % SERVICE_ICONS.len()].into(),
                title: words::SERVICE_TITLES.pick(locale, index).into(),
                description: words::SERVICE_DESCRIPTIONS.pick(locale, index).into(),
                enable,
                action_type: "button".into(),
                expires: (enable && sequence.chance(50)).then(|| beijing_date(day + sequence.between(1, 365))),
            }
        })
        .collect()
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RulePreset {
    pub id: i64,
    pub title: String,
    pub description: String,
    pub enable: bool,
    /// Always `switch` for rule presets.
    pub action_type: String,
}

pub fn rule_presets(day: i64, locale: Locale) -> Vec<RulePreset> {
    let mut sequence = Sequence::new(day, "rules-preset");
    (0..words::RULE_TITLES.len())
        .map(|index| RulePreset {
            id: index as i64 + 1,
            title: words::RULE_TITLES.pick(locale, index).into(),
            description: words::RULE_DESCRIPTIONS.pick(locale, index).into(),
            enable: sequence.chance(60),
            action_type: "switch".into(),
        })
        .collect()
}

pub const CONTENT_TYPES: [&str; 3] = ["img", "horizontalVideo", "verticalVideo"];
pub const FILTER_TYPES: [&str; 2] = ["artificial", "rules"];
pub const POLICY_STATUSES: [&str; 2] = ["online", "offline"];

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PolicyRow {
    pub id: i64,
    pub number: i64,
    pub name: String,
    pub content_type: String,
    pub count: i64,
    pub status: String,
    pub filter_type: String,
    /// `YYYY-MM-DD HH:MM:SS` Beijing time, within the 30 days before today.
    pub created_time: String,
}

/// All 55 rows of the day, newest first.
pub fn policies(day: i64, locale: Locale) -> Vec<PolicyRow> {
    let mut sequence = Sequence::new(day, "policy");
    // Before the day began: the rows are the same all day and none lies in the future.
    let day_start = beijing_day_start(day);
    let mut rows: Vec<(i64, PolicyRow)> = (0..POLICY_TOTAL)
        .map(|index| {
            let created = day_start - sequence.between(1, 30 * DAY_MS / 1_000) * 1_000;
            let row = PolicyRow {
                id: index as i64 + 1,
                number: sequence.between(10_000_000, 99_999_999),
                name: format!("{}-{:02}", words::POLICY_NAMES.pick(locale, sequence.index(7)), index + 1),
                content_type: CONTENT_TYPES[sequence.index(CONTENT_TYPES.len())].into(),
                count: sequence.between(0, 2_000),
                status: POLICY_STATUSES[sequence.index(POLICY_STATUSES.len())].into(),
                filter_type: FILTER_TYPES[sequence.index(FILTER_TYPES.len())].into(),
                created_time: beijing_time(created),
            };
            (created, row)
        })
        .collect();
    rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.id.cmp(&b.1.id)));
    rows.into_iter().map(|(_, row)| row).collect()
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Contributor {
    pub name: String,
    pub email: String,
    pub avatar: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Project {
    pub id: i64,
    pub name: String,
    pub description: String,
    pub people_number: i64,
    pub contributors: Vec<Contributor>,
}

const CONTRIBUTORS: [(&str, &str); 5] = [
    ("Alex", "alex@example.com"),
    ("Blake", "blake@example.com"),
    ("Casey", "casey@example.com"),
    ("Drew", "drew@example.com"),
    ("Emery", "emery@example.com"),
];

/// Avatars are the initials the console draws; an empty avatar means "draw the name".
pub fn projects(day: i64, locale: Locale) -> Vec<Project> {
    let mut sequence = Sequence::new(day, "projects");
    (0..words::PROJECT_NAMES.len())
        .map(|index| {
            let count = sequence.between(2, CONTRIBUTORS.len() as i64) as usize;
            let first = sequence.index(CONTRIBUTORS.len());
            Project {
                id: index as i64 + 1,
                name: words::PROJECT_NAMES.pick(locale, index).into(),
                description: words::PROJECT_DESCRIPTIONS.pick(locale, index).into(),
                people_number: sequence.between(count as i64, 120),
                contributors: (0..count)
                    .map(|offset| {
                        let (name, email) = CONTRIBUTORS[(first + offset) % CONTRIBUTORS.len()];
                        Contributor { name: name.into(), email: email.into(), avatar: String::new() }
                    })
                    .collect(),
            }
        })
        .collect()
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Team {
    pub id: i64,
    pub avatar: String,
    pub name: String,
    pub people_number: i64,
}

pub fn teams(day: i64, locale: Locale) -> Vec<Team> {
    let mut sequence = Sequence::new(day, "teams");
    (0..words::TEAM_NAMES.len())
        .map(|index| Team {
            id: index as i64 + 1,
            avatar: String::new(),
            name: words::TEAM_NAMES.pick(locale, index).into(),
            people_number: sequence.between(3, 200),
        })
        .collect()
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Activity {
    pub id: i64,
    pub title: String,
    pub description: String,
    pub avatar: String,
}

pub fn activities(day: i64, locale: Locale) -> Vec<Activity> {
    let mut sequence = Sequence::new(day, "activities");
    (0..6)
        .map(|index| Activity {
            id: index + 1,
            title: words::ACTIVITY_TITLES.pick(locale, sequence.index(words::ACTIVITY_TITLES.len())).into(),
            description: words::ACTIVITY_DESCRIPTIONS
                .pick(locale, sequence.index(words::ACTIVITY_DESCRIPTIONS.len()))
                .into(),
            avatar: String::new(),
        })
        .collect()
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Visits {
    pub name: String,
    pub visits: i64,
    /// Change on the previous day in percent.
    pub growth: i64,
}

pub fn visits(day: i64, locale: Locale) -> Vec<Visits> {
    let mut sequence = Sequence::new(day, "visits");
    (0..words::VISIT_NAMES.len())
        .map(|index| Visits {
            name: words::VISIT_NAMES.pick(locale, index).into(),
            visits: sequence.between(100, 20_000),
            growth: sequence.between(-20, 50),
        })
        .collect()
}

#[cfg(test)]
#[path = "generate_tests.rs"]
mod tests;
