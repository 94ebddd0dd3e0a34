//! Tests of the demo generators (their shapes and constants).
use super::*;

const DAY: i64 = 20_000;

#[test]
fn the_policy_list_has_55_rows_of_the_spec_shapes() {
    let rows = policies(DAY, Locale::ZhCn);
    assert_eq!(rows.len(), POLICY_TOTAL);
    assert_eq!(POLICY_TOTAL, 55);
    let mut ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
    ids.sort_unstable();
    assert_eq!(ids, (1..=55).collect::<Vec<_>>());
    for row in &rows {
        assert!(CONTENT_TYPES.contains(&row.content_type.as_str()));
        assert!(FILTER_TYPES.contains(&row.filter_type.as_str()));
        assert!(POLICY_STATUSES.contains(&row.status.as_str()));
        assert!((0..=2_000).contains(&row.count));
        assert!((10_000_000..=99_999_999).contains(&row.number));
    }
    // Newest first, all within the 30 days up to the day.
    assert!(rows.windows(2).all(|pair| pair[0].created_time >= pair[1].created_time));
    assert!(rows[0].created_time.as_str() < beijing_date(DAY).as_str());
    assert!(rows[54].created_time.as_str() >= beijing_date(DAY - 30).as_str());
}

#[test]
fn each_day_has_its_own_data_and_keeps_it_all_day() {
    assert_eq!(
        serde_json::to_value(policies(DAY, Locale::EnUs)).unwrap(),
        serde_json::to_value(policies(DAY, Locale::EnUs)).unwrap()
    );
    assert_ne!(
        serde_json::to_value(policies(DAY, Locale::EnUs)).unwrap(),
        serde_json::to_value(policies(DAY + 1, Locale::EnUs)).unwrap()
    );
    // The two languages describe the same rows.
    let zh = policies(DAY, Locale::ZhCn);
    let en = policies(DAY, Locale::EnUs);
    assert!(zh.iter().zip(&en).all(|(a, b)| a.id == b.id && a.number == b.number && a.status == b.status));
}

#[test]
fn the_content_series_is_the_8_days_up_to_today() {
    let series = content_data(DAY);
    assert_eq!(series.len(), 8);
    assert_eq!(series.last().unwrap().x, beijing_date(DAY));
    assert_eq!(series.first().unwrap().x, beijing_date(DAY - 7));
    assert!(series.iter().all(|point| (1_000..=5_000).contains(&point.y)));
}

#[test]
fn popular_items_are_sorted_by_clicks_within_their_ranges() {
    for kind in [PopularType::Text, PopularType::Image, PopularType::Video] {
        let items = popular(DAY, kind, Locale::EnUs);
        assert_eq!(items.len(), 5);
        assert!(items.windows(2).all(|pair| pair[0].click_number >= pair[1].click_number));
        assert!(items.iter().all(|item| (-30..=80).contains(&item.increases)));
        let titles: std::collections::HashSet<_> = items.iter().map(|item| item.title.clone()).collect();
        assert_eq!(titles.len(), items.len(), "no title twice");
    }
    assert!(PopularType::parse("audio").is_none());
}

#[test]
fn card_lists_have_the_spec_fields() {
    let queues = quality_inspection(DAY, beijing_day_start(DAY) + 1_000, Locale::ZhCn);
    assert!(queues.iter().all(|queue| queue.data.len() == 3));
    assert!(queues.iter().all(|queue| (0..=72).contains(&queue.data[1].value)));
    assert!(services(DAY, Locale::EnUs).iter().all(|service| service.action_type == "button"));
    assert!(services(DAY, Locale::EnUs).iter().all(|service| service.enable || service.expires.is_none()));
    assert!(rule_presets(DAY, Locale::EnUs).iter().all(|rule| rule.action_type == "switch"));
    let chat = chat(DAY, Locale::ZhCn);
    assert!(chat.windows(2).all(|pair| pair[0].time <= pair[1].time));
}

#[test]
fn projects_have_contributors_and_the_word_lists_pair_up() {
    for project in projects(DAY, Locale::EnUs) {
        assert!(project.contributors.len() >= 2);
        assert!(project.people_number >= project.contributors.len() as i64);
        assert!(project.contributors.iter().all(|contributor| contributor.email.contains('@')));
    }
    for list in [
        &words::POLICY_NAMES,
        &words::POPULAR_TITLES,
        &words::CHAT_NAMES,
        &words::CHAT_CONTENTS,
        &words::QUEUE_NAMES,
        &words::SERVICE_TITLES,
        &words::RULE_TITLES,
        &words::PROJECT_NAMES,
        &words::TEAM_NAMES,
        &words::ACTIVITY_TITLES,
        &words::VISIT_NAMES,
    ] {
        assert!(!list.is_empty());
        for (zh, en) in list.pairs() {
            assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{zh}");
            assert!(!en.is_empty() && en.is_ascii(), "{en}");
        }
    }
    assert_eq!(visits(DAY, Locale::EnUs).len(), 3);
    assert_eq!(teams(DAY, Locale::EnUs).len(), 4);
    assert_eq!(activities(DAY, Locale::EnUs).len(), 6);
}
