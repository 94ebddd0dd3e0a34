//! Texts of the saved views of the console's list pages (issue 52), in both locales.

use super::Locale;
use std::borrow::Cow;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViewMessage {
    /// The page named is not one of the list pages that keep views.
    PageUnknown,
    NameRequired,
    NameTooLong {
        max: usize,
    },
    /// The caller already has a view of this name on this page.
    NameTaken,
    /// The state is not a JSON object.
    StateInvalid,
    StateTooLarge {
        max_kib: usize,
    },
    TooMany {
        max: usize,
    },
    /// A view shared by someone else: it may be used, never changed.
    NotYours,
    /// The view asked for does not exist, or the caller may not see it.
    NotFound,
}

impl ViewMessage {
    pub fn key(&self) -> &'static str {
        use ViewMessage::*;
        match self {
            PageUnknown => "view.page.unknown",
            NameRequired => "view.name.required",
            NameTooLong { .. } => "view.name.too_long",
            NameTaken => "view.name.taken",
            StateInvalid => "view.state.invalid",
            StateTooLarge { .. } => "view.state.too_large",
            TooMany { .. } => "view.too_many",
            NotYours => "view.not_yours",
            NotFound => "view.not_found",
        }
    }

    pub fn text(&self, locale: Locale) -> Cow<'static, str> {
        use ViewMessage::*;
        let zh = locale == Locale::ZhCn;
        let pick = |zh_text: &'static str, en_text: &'static str| -> Cow<'static, str> {
            if zh { zh_text.into() } else { en_text.into() }
        };
        match self {
            PageUnknown => pick("该页面不支持保存视图", "this page does not keep saved views"),
            NameRequired => pick("请输入视图名称", "please name the view"),
            NameTooLong { max } => {
                if zh {
                    format!("视图名称最多 {max} 个字符").into()
                } else {
                    format!("the view's name must be at most {max} characters").into()
                }
            }
            NameTaken => pick("该页面已有同名视图", "you already have a view of this name on this page"),
            StateInvalid => pick("视图内容必须是 JSON 对象", "the view's state must be a JSON object"),
            StateTooLarge { max_kib } => {
                if zh {
                    format!("视图内容不能超过 {max_kib} KiB").into()
                } else {
                    format!("the view's state must be at most {max_kib} KiB").into()
                }
            }
            TooMany { max } => {
                if zh {
                    format!("每个页面最多保存 {max} 个视图，请先删除不用的视图").into()
                } else {
                    format!("at most {max} views per page: delete one you no longer use first").into()
                }
            }
            NotYours => pick(
                "这是他人共享的视图，只能使用，不能修改或删除",
                "this view was shared by someone else: you may use it but not change or delete it",
            ),
            NotFound => pick("视图不存在或已被删除", "no such view: it was deleted or is no longer shared"),
        }
    }
}
