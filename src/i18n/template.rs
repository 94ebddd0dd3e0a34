//! Texts of the template and demo pages (mock material, served only with
//! `--template-pages`). The generators pick from these lists, so every invented name,
//! title and sentence exists in both languages, Chinese first.

use super::Locale;

/// A pair of lists that are read in step: entry `i` of one language is entry `i` of the other.
pub struct Words {
    zh: &'static [&'static str],
    en: &'static [&'static str],
}

impl Words {
    pub fn pick(&self, locale: Locale, index: usize) -> &'static str {
        let list = if locale == Locale::ZhCn { self.zh } else { self.en };
        list[index % list.len()]
    }

    pub fn len(&self) -> usize {
        self.zh.len().min(self.en.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[cfg(test)]
    pub fn pairs(&self) -> impl Iterator<Item = (&'static str, &'static str)> {
        self.zh.iter().copied().zip(self.en.iter().copied())
    }
}

pub const POLICY_NAMES: Words = Words {
    zh: &["每日推荐", "热门短视频", "新品首发", "节日专题", "精选图集", "直播预告", "本地生活"],
    en: &[
        "Daily picks",
        "Trending clips",
        "New arrivals",
        "Holiday special",
        "Photo selection",
        "Live preview",
        "Local life",
    ],
};

pub const POPULAR_TITLES: Words = Words {
    zh: &["话费充值省钱攻略", "流量包怎么选", "携号转网须知", "月底缴费提醒", "新用户福利说明"],
    en: &[
        "Saving on phone credit",
        "Choosing a data plan",
        "Before porting a number",
        "Month-end payment reminder",
        "New customer benefits",
    ],
};

pub const CHAT_NAMES: Words = Words {
    zh: &["王小明", "李华", "张伟", "刘洋", "陈静"],
    en: &["Alex", "Blake", "Casey", "Drew", "Emery"],
};

pub const CHAT_CONTENTS: Words = Words {
    zh: &[
        "这条内容的审核进度如何？",
        "新的策略已上线，请查看。",
        "明天的直播安排确认了吗？",
        "数据报表已更新。",
        "收到，我马上处理。",
    ],
    en: &[
        "How far is the review of this item?",
        "The new policy is online, please have a look.",
        "Is tomorrow's live schedule confirmed?",
        "The data report is updated.",
        "Got it, on it now.",
    ],
};

pub const QUEUE_NAMES: Words = Words {
    zh: &["图文质检队列", "视频质检队列", "直播质检队列", "评论质检队列", "账号质检队列", "广告质检队列"],
    en: &[
        "Article inspection",
        "Video inspection",
        "Live inspection",
        "Comment inspection",
        "Account inspection",
        "Ad inspection",
    ],
};

pub const SERVICE_TITLES: Words = Words {
    zh: &["内容审核服务", "智能推荐服务", "数据分析服务", "消息推送服务", "图像识别服务", "语音转写服务"],
    en: &[
        "Content review",
        "Smart recommendation",
        "Data analysis",
        "Message push",
        "Image recognition",
        "Speech transcription",
    ],
};

pub const SERVICE_DESCRIPTIONS: Words = Words {
    zh: &["按规则自动审核并标记可疑内容", "根据用户兴趣推荐内容", "汇总多维数据生成报表", "向指定用户群发送通知"],
    en: &[
        "Reviews content by rules and flags doubtful items",
        "Recommends content by interest",
        "Builds reports from several dimensions",
        "Sends notices to chosen audiences",
    ],
};

pub const RULE_TITLES: Words = Words {
    zh: &["敏感词过滤", "重复内容拦截", "低质图片识别", "外链检测", "未成年人保护", "夜间静默"],
    en: &[
        "Sensitive word filter",
        "Duplicate content block",
        "Low-quality image check",
        "Outbound link check",
        "Minor protection",
        "Night silence",
    ],
};

pub const RULE_DESCRIPTIONS: Words = Words {
    zh: &["命中后转人工复核", "命中后直接下线", "命中后降低推荐权重"],
    en: &["Sends hits to manual review", "Takes hits offline at once", "Lowers the recommendation weight of hits"],
};

pub const PROJECT_NAMES: Words = Words {
    zh: &["企业级产品设计系统", "充值渠道接入", "对账自动化", "移动端控制台", "风控规则平台", "数据看板"],
    en: &[
        "Enterprise design system",
        "Top-up channel onboarding",
        "Reconciliation automation",
        "Mobile console",
        "Risk rules platform",
        "Data dashboards",
    ],
};

pub const PROJECT_DESCRIPTIONS: Words = Words {
    zh: &["统一界面规范与组件", "接入新的运营商渠道", "每日自动核对流水", "随时随地处理订单"],
    en: &[
        "One set of interface rules and components",
        "Connects a new carrier channel",
        "Checks the day's statements automatically",
        "Handles orders anywhere",
    ],
};

pub const TEAM_NAMES: Words = Words {
    zh: &["运营中心", "技术中心", "财务中心", "客服中心"],
    en: &["Operations", "Engineering", "Finance", "Customer service"],
};

pub const ACTIVITY_TITLES: Words = Words {
    zh: &["发布了新版本", "提交了对账报告", "更新了充值策略", "关闭了一个工单", "邀请了新成员"],
    en: &[
        "Released a new version",
        "Submitted the reconciliation report",
        "Updated the top-up policy",
        "Closed a ticket",
        "Invited a new member",
    ],
};

pub const ACTIVITY_DESCRIPTIONS: Words = Words {
    zh: &["变更已同步到所有环境。", "本期差异已全部处理。", "新规则明日生效。"],
    en: &[
        "The change reached every environment.",
        "Every difference of the period is settled.",
        "The new rules apply from tomorrow.",
    ],
};

pub const VISIT_NAMES: Words = Words {
    zh: &["主页访问", "内容浏览", "下单页访问"],
    en: &["Home page", "Content views", "Order page"],
};

/// Why a template form was refused (the channel form's submit call).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplateMessage {
    Required,
    NumberOutOfRange {
        min: i64,
        max: i64,
    },
    /// The default encoding rate lies outside the chosen minimum and maximum.
    DefaultOutsideMinMax,
    MinAboveMax,
    LinkInvalid,
    SubmitFailed,
}

impl TemplateMessage {
    pub fn key(&self) -> &'static str {
        match self {
            Self::Required => "template.required",
            Self::NumberOutOfRange { .. } => "template.number_out_of_range",
            Self::DefaultOutsideMinMax => "template.default_outside_min_max",
            Self::MinAboveMax => "template.min_above_max",
            Self::LinkInvalid => "template.link_invalid",
            Self::SubmitFailed => "template.submit_failed",
        }
    }

    pub fn text(&self, locale: Locale) -> std::borrow::Cow<'static, str> {
        let zh = locale == Locale::ZhCn;
        match self {
            Self::Required => if zh { "此项必填" } else { "This field is required" }.into(),
            Self::NumberOutOfRange { min, max } => {
                if zh {
                    format!("请输入 {min} 到 {max} 之间的整数").into()
                } else {
                    format!("Enter a whole number from {min} to {max}").into()
                }
            }
            Self::DefaultOutsideMinMax => if zh {
                "默认码率必须在最小码率与最大码率之间"
            } else {
                "The default rate must lie between the minimum and maximum rates"
            }
            .into(),
            Self::MinAboveMax => if zh {
                "最小码率不能大于最大码率"
            } else {
                "The minimum rate cannot exceed the maximum rate"
            }
            .into(),
            Self::LinkInvalid => if zh {
                "链接必须以 http:// 或 https:// 开头"
            } else {
                "The link must start with http:// or https://"
            }
            .into(),
            // Word for word as the console shows it.
            Self::SubmitFailed => {
                if zh { "表单提交失败，请重试" } else { "Form submission failed, please retry" }.into()
            }
        }
    }
}
