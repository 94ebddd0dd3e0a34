//! The channel form's parameter group (video and audio parameters, with their ranges).
//!
//! The video ranges are fixed (encoding rate 150–1800, frame rates 1–30, description at
//! most 200 characters). The original's audio-channel and video-profile placeholders were
//! copied from other fields, so the ranges below are our choice, and the form's help text
//! says so: audio acquisition channels 1–8, audio encoding channels 1–2 (mono or stereo),
//! audio encoding rate 16–320 kbps, and the profiles are choices, not numbers.

use crate::http::error::FieldError;
use crate::i18n::{Message, TemplateMessage, TradeMessage};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub const ENCODING_RATE: (i64, i64) = (150, 1_800);
pub const FRAME_RATE: (i64, i64) = (1, 30);
pub const AUDIO_ACQUISITION_CHANNELS: (i64, i64) = (1, 8);
pub const AUDIO_ENCODING_CHANNELS: (i64, i64) = (1, 2);
pub const AUDIO_ENCODING_RATE: (i64, i64) = (16, 320);
pub const DESCRIPTION_MAX: usize = 200;
pub const ACTIVITY_NAME_MAX: usize = 20;

pub const MODES: [&str; 2] = ["custom", "auto"];
pub const RESOLUTIONS: [&str; 4] = ["1920x1080", "1280x720", "720x1280", "640x360"];
pub const VIDEO_PROFILES: [&str; 3] = ["baseline", "main", "high"];
pub const AUDIO_PROFILES: [&str; 3] = ["AAC-LC", "HE-AAC", "HE-AACv2"];
pub const CHANNEL_TYPES: [&str; 3] = ["app", "web", "miniProgram"];

/// What the step form sends; every field is optional here so a missing one is named in
/// the answer instead of failing the whole body.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ChannelFormRequest {
    #[schema(value_type = String, required = true, pattern = r"\S")]
    pub activity_name: Option<String>,
    #[schema(value_type = String, required = true, pattern = r"^\s*(app|web|miniProgram)\s*$")]
    pub channel_type: Option<String>,
    #[schema(value_type = String, required = true, pattern = r"\S")]
    pub promote_link: Option<String>,
    #[schema(value_type = String, required = true, pattern = r"^\s*(custom|auto)\s*$")]
    pub video_mode: Option<String>,
    #[schema(value_type = String, required = true, pattern = r"^\s*(1920x1080|1280x720|720x1280|640x360)\s*$")]
    pub video_acquisition_resolution: Option<String>,
    #[schema(value_type = i64, required = true, minimum = 1, maximum = 30)]
    pub video_acquisition_frame_rate: Option<i64>,
    #[schema(value_type = String, required = true, pattern = r"^\s*(1920x1080|1280x720|720x1280|640x360)\s*$")]
    pub video_encoding_resolution: Option<String>,
    #[schema(value_type = i64, required = true, minimum = 150, maximum = 1800)]
    pub video_encoding_rate_min: Option<i64>,
    #[schema(value_type = i64, required = true, minimum = 150, maximum = 1800)]
    pub video_encoding_rate_max: Option<i64>,
    #[schema(value_type = i64, required = true, minimum = 150, maximum = 1800)]
    pub video_encoding_rate_default: Option<i64>,
    #[schema(value_type = i64, required = true, minimum = 1, maximum = 30)]
    pub video_encoding_frame_rate: Option<i64>,
    #[schema(value_type = String, required = true, pattern = r"^\s*(baseline|main|high)\s*$")]
    pub video_encoding_profile: Option<String>,
    #[schema(value_type = String, required = true, pattern = r"^\s*(custom|auto)\s*$")]
    pub audio_mode: Option<String>,
    #[schema(value_type = i64, required = true, minimum = 1, maximum = 8)]
    pub audio_acquisition_channels: Option<i64>,
    #[schema(value_type = i64, required = true, minimum = 16, maximum = 320)]
    pub audio_encoding_rate: Option<i64>,
    #[schema(value_type = i64, required = true, minimum = 1, maximum = 2)]
    pub audio_encoding_channels: Option<i64>,
    #[schema(value_type = String, required = true, pattern = r"^\s*(AAC-LC|HE-AAC|HE-AACv2)\s*$")]
    pub audio_encoding_profile: Option<String>,
    pub description: Option<String>,
}

/// A parameter group that passed every rule, echoed back to the console (never stored).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChannelForm {
    pub activity_name: String,
    pub channel_type: String,
    pub promote_link: String,
    pub video_mode: String,
    pub video_acquisition_resolution: String,
    pub video_acquisition_frame_rate: i64,
    pub video_encoding_resolution: String,
    pub video_encoding_rate_min: i64,
    pub video_encoding_rate_max: i64,
    pub video_encoding_rate_default: i64,
    pub video_encoding_frame_rate: i64,
    pub video_encoding_profile: String,
    pub audio_mode: String,
    pub audio_acquisition_channels: i64,
    pub audio_encoding_rate: i64,
    pub audio_encoding_channels: i64,
    pub audio_encoding_profile: String,
    pub description: String,
}

struct Check {
    errors: Vec<FieldError>,
}

impl Check {
    fn fail(&mut self, field: &str, message: Message) {
        self.errors.push(FieldError::new(field, message));
    }

    fn number(&mut self, field: &str, value: Option<i64>, (min, max): (i64, i64)) -> i64 {
        match value {
            None => self.fail(field, TemplateMessage::Required.into()),
            Some(number) if !(min..=max).contains(&number) => {
                self.fail(field, TemplateMessage::NumberOutOfRange { min, max }.into())
            }
            Some(number) => return number,
        }
        0
    }

    fn choice(&mut self, field: &str, value: Option<&str>, allowed: &[&'static str], list: &'static str) -> String {
        match value.map(str::trim) {
            None | Some("") => self.fail(field, TemplateMessage::Required.into()),
            Some(text) if !allowed.contains(&text) => {
                self.fail(field, TradeMessage::InvalidChoice { allowed: list }.into())
            }
            Some(text) => return text.to_string(),
        }
        String::new()
    }

    fn text(&mut self, field: &str, value: Option<&str>, max: usize, required: bool) -> String {
        let text = value.unwrap_or("").trim();
        if required && text.is_empty() {
            self.fail(field, TemplateMessage::Required.into());
        } else if text.chars().count() > max {
            self.fail(field, Message::UserCentre(crate::i18n::UserCentreMessage::TooLong { max }));
        }
        text.to_string()
    }
}

impl From<TemplateMessage> for Message {
    fn from(message: TemplateMessage) -> Self {
        Message::Template(message)
    }
}

impl ChannelFormRequest {
    /// Every rule at once, so the console can mark each wrong field.
    pub fn validate(&self) -> Result<ChannelForm, Vec<FieldError>> {
        let mut check = Check { errors: Vec::new() };
        let activity_name = check.text("activityName", self.activity_name.as_deref(), ACTIVITY_NAME_MAX, true);
        let channel_type =
            check.choice("channelType", self.channel_type.as_deref(), &CHANNEL_TYPES, "app, web, miniProgram");
        let promote_link = check.text("promoteLink", self.promote_link.as_deref(), 200, true);
        let is_link = promote_link.starts_with("http://") || promote_link.starts_with("https://");
        if !promote_link.is_empty() && !is_link {
            check.fail("promoteLink", TemplateMessage::LinkInvalid.into());
        }
        let video_mode = check.choice("videoMode", self.video_mode.as_deref(), &MODES, "custom, auto");
        let resolutions = "1920x1080, 1280x720, 720x1280, 640x360";
        let video_acquisition_resolution = check.choice(
            "videoAcquisitionResolution",
            self.video_acquisition_resolution.as_deref(),
            &RESOLUTIONS,
            resolutions,
        );
        let video_acquisition_frame_rate =
            check.number("videoAcquisitionFrameRate", self.video_acquisition_frame_rate, FRAME_RATE);
        let video_encoding_resolution = check.choice(
            "videoEncodingResolution",
            self.video_encoding_resolution.as_deref(),
            &RESOLUTIONS,
            resolutions,
        );
        let rate_min = check.number("videoEncodingRateMin", self.video_encoding_rate_min, ENCODING_RATE);
        let rate_max = check.number("videoEncodingRateMax", self.video_encoding_rate_max, ENCODING_RATE);
        let rate_default = check.number("videoEncodingRateDefault", self.video_encoding_rate_default, ENCODING_RATE);
        if check.errors.iter().all(|error| !error.field.starts_with("videoEncodingRate")) {
            if rate_min > rate_max {
                check.fail("videoEncodingRateMin", TemplateMessage::MinAboveMax.into());
            } else if !(rate_min..=rate_max).contains(&rate_default) {
                check.fail("videoEncodingRateDefault", TemplateMessage::DefaultOutsideMinMax.into());
            }
        }
        let video_encoding_frame_rate =
            check.number("videoEncodingFrameRate", self.video_encoding_frame_rate, FRAME_RATE);
        let video_encoding_profile = check.choice(
            "videoEncodingProfile",
            self.video_encoding_profile.as_deref(),
            &VIDEO_PROFILES,
            "baseline, main, high",
        );
        let audio_mode = check.choice("audioMode", self.audio_mode.as_deref(), &MODES, "custom, auto");
        let audio_acquisition_channels =
            check.number("audioAcquisitionChannels", self.audio_acquisition_channels, AUDIO_ACQUISITION_CHANNELS);
        let audio_encoding_rate = check.number("audioEncodingRate", self.audio_encoding_rate, AUDIO_ENCODING_RATE);
        let audio_encoding_channels =
            check.number("audioEncodingChannels", self.audio_encoding_channels, AUDIO_ENCODING_CHANNELS);
        let audio_encoding_profile = check.choice(
            "audioEncodingProfile",
            self.audio_encoding_profile.as_deref(),
            &AUDIO_PROFILES,
            "AAC-LC, HE-AAC, HE-AACv2",
        );
        let description = check.text("description", self.description.as_deref(), DESCRIPTION_MAX, false);
        if !check.errors.is_empty() {
            return Err(check.errors);
        }
        Ok(ChannelForm {
            activity_name,
            channel_type,
            promote_link,
            video_mode,
            video_acquisition_resolution,
            video_acquisition_frame_rate,
            video_encoding_resolution,
            video_encoding_rate_min: rate_min,
            video_encoding_rate_max: rate_max,
            video_encoding_rate_default: rate_default,
            video_encoding_frame_rate,
            video_encoding_profile,
            audio_mode,
            audio_acquisition_channels,
            audio_encoding_rate,
            audio_encoding_channels,
            audio_encoding_profile,
            description,
        })
    }
}

#[cfg(test)]
pub fn good_request() -> ChannelFormRequest {
    ChannelFormRequest {
        activity_name: Some("Spring launch".into()),
        channel_type: Some("app".into()),
        promote_link: Some("http://example.com/launch".into()),
        video_mode: Some("custom".into()),
        video_acquisition_resolution: Some("1920x1080".into()),
        video_acquisition_frame_rate: Some(30),
        video_encoding_resolution: Some("1280x720".into()),
        video_encoding_rate_min: Some(150),
        video_encoding_rate_max: Some(1_800),
        video_encoding_rate_default: Some(800),
        video_encoding_frame_rate: Some(1),
        video_encoding_profile: Some("high".into()),
        audio_mode: Some("auto".into()),
        audio_acquisition_channels: Some(2),
        audio_encoding_rate: Some(128),
        audio_encoding_channels: Some(2),
        audio_encoding_profile: Some("AAC-LC".into()),
        description: Some("x".repeat(200)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(request: &ChannelFormRequest) -> Vec<String> {
        request.validate().err().unwrap_or_default().into_iter().map(|error| error.field).collect()
    }

    #[test]
    fn a_group_at_every_edge_passes() {
        assert!(good_request().validate().is_ok());
    }

    #[test]
    fn every_range_refuses_one_past_each_edge() {
        type Setter = fn(&mut ChannelFormRequest, i64);
        let cases: [(&str, (i64, i64), Setter); 8] = [
            ("videoAcquisitionFrameRate", FRAME_RATE, |r, v| r.video_acquisition_frame_rate = Some(v)),
            ("videoEncodingFrameRate", FRAME_RATE, |r, v| r.video_encoding_frame_rate = Some(v)),
            ("videoEncodingRateMin", ENCODING_RATE, |r, v| r.video_encoding_rate_min = Some(v)),
            ("videoEncodingRateMax", ENCODING_RATE, |r, v| r.video_encoding_rate_max = Some(v)),
            ("videoEncodingRateDefault", ENCODING_RATE, |r, v| r.video_encoding_rate_default = Some(v)),
            ("audioAcquisitionChannels", AUDIO_ACQUISITION_CHANNELS, |r, v| r.audio_acquisition_channels = Some(v)),
            ("audioEncodingRate", AUDIO_ENCODING_RATE, |r, v| r.audio_encoding_rate = Some(v)),
            ("audioEncodingChannels", AUDIO_ENCODING_CHANNELS, |r, v| r.audio_encoding_channels = Some(v)),
        ];
        for (field, (min, max), set) in cases {
            for value in [min - 1, max + 1] {
                let mut request = good_request();
                set(&mut request, value);
                assert!(fields(&request).contains(&field.to_string()), "{field} accepted {value}");
            }
        }
    }

    #[test]
    fn the_default_rate_lies_between_min_and_max_and_texts_are_bounded() {
        let mut request = good_request();
        request.video_encoding_rate_min = Some(900);
        request.video_encoding_rate_default = Some(800);
        assert_eq!(fields(&request), ["videoEncodingRateDefault"]);
        request.video_encoding_rate_max = Some(850);
        assert_eq!(fields(&request), ["videoEncodingRateMin"]);
        let mut request = good_request();
        request.description = Some("x".repeat(201));
        request.activity_name = Some("名".repeat(21));
        request.promote_link = Some("ftp://example.com".into());
        request.video_encoding_profile = Some("extended".into());
        request.audio_mode = None;
        assert_eq!(
            fields(&request),
            ["activityName", "promoteLink", "videoEncodingProfile", "audioMode", "description"]
        );
        request.activity_name = Some("名".repeat(20));
        assert!(!fields(&request).contains(&"activityName".to_string()));
    }
}
