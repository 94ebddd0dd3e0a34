//! A merchant's risk controls at placement (风控) and the rule that refuses an order by them.
//! No I/O: placing reads the settings from memory (`platform::risk`) and today's figures
//! from the database, then asks [`RiskLimits::refusal`].

/// One merchant's controls. 0 in a limit means no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RiskLimits {
    /// One unfinished order (pending, processing, manual review) per number at a time.
    pub single_flight: bool,
    /// Orders per number per Beijing day.
    pub number_daily_orders: i64,
    /// Fen per number per Beijing day (the orders' prices).
    pub number_daily_fen: i64,
    /// Fen of the merchant's orders per Beijing day (the orders' prices).
    pub daily_cap_fen: i64,
}

impl Default for RiskLimits {
    /// A merchant no administrator has set: one order in flight per number, no limits.
    fn default() -> Self {
        Self { single_flight: true, number_daily_orders: 0, number_daily_fen: 0, daily_cap_fen: 0 }
    }
}

/// What counts toward today's limits, read before the order is placed. Successful and
/// unfinished orders count; failed and reversed ones do not (their money came back, so the
/// number and the merchant may use it again).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Today {
    pub number_orders: i64,
    pub number_fen: i64,
    pub merchant_fen: i64,
}

/// Today's figures of a merchant and its numbers, as a batch submit reads them once and
/// keeps them up to date line by line (its orders count for the lines after them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DayFigures {
    pub merchant_fen: i64,
    /// (orders, fen) per number.
    pub numbers: std::collections::HashMap<String, (i64, i64)>,
}

impl DayFigures {
    pub fn today(&self, account: &str) -> Today {
        let (number_orders, number_fen) = self.numbers.get(account).copied().unwrap_or_default();
        Today { number_orders, number_fen, merchant_fen: self.merchant_fen }
    }

    /// An order of `price_fen` for `account` placed.
    pub fn add(&mut self, account: &str, price_fen: i64) {
        self.merchant_fen += price_fen;
        let entry = self.numbers.entry(account.to_string()).or_default();
        entry.0 += 1;
        entry.1 += price_fen;
    }
}

/// Why an order is refused by its merchant's controls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RiskRefusal {
    NumberInFlight,
    NumberDailyOrders,
    NumberDailyAmount,
    MerchantDailyCap,
}

impl RiskRefusal {
    pub const ALL: [RiskRefusal; 4] = [
        RiskRefusal::NumberInFlight,
        RiskRefusal::NumberDailyOrders,
        RiskRefusal::NumberDailyAmount,
        RiskRefusal::MerchantDailyCap,
    ];

    /// The refusal of a [`RiskRefusal::name`] (as `risk_refusals` stores it).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|reason| reason.name() == name)
    }

    /// Its name on the live monitor and in the API.
    pub fn name(self) -> &'static str {
        match self {
            RiskRefusal::NumberInFlight => "number_in_flight",
            RiskRefusal::NumberDailyOrders => "number_daily_orders",
            RiskRefusal::NumberDailyAmount => "number_daily_amount",
            RiskRefusal::MerchantDailyCap => "merchant_daily_cap",
        }
    }
}

impl RiskLimits {
    /// Whether placing must read today's figures (a limit is set).
    pub fn counts_today(&self) -> bool {
        self.number_daily_orders > 0 || self.number_daily_fen > 0 || self.daily_cap_fen > 0
    }

    /// Why an order of `price_fen` is refused after `today`, if it is: a limit is reached
    /// when the order would pass it (an order that meets it exactly is placed).
    pub fn refusal(&self, today: Today, price_fen: i64) -> Option<RiskRefusal> {
        let passes = |limit: i64, after: i64| limit > 0 && after > limit;
        if passes(self.number_daily_orders, today.number_orders + 1) {
            Some(RiskRefusal::NumberDailyOrders)
        } else if passes(self.number_daily_fen, today.number_fen + price_fen) {
            Some(RiskRefusal::NumberDailyAmount)
        } else if passes(self.daily_cap_fen, today.merchant_fen + price_fen) {
            Some(RiskRefusal::MerchantDailyCap)
        } else {
            None
        }
    }

    /// Each limit is a non-negative whole number (fen for money).
    pub fn is_valid(&self) -> bool {
        self.number_daily_orders >= 0 && self.number_daily_fen >= 0 && self.daily_cap_fen >= 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_limit_refuses_nothing_and_a_limit_refuses_only_what_passes_it() {
        let none = RiskLimits::default();
        assert!(!none.counts_today());
        let huge = Today { number_orders: 1_000, number_fen: 1 << 40, merchant_fen: 1 << 40 };
        assert_eq!(none.refusal(huge, 10_000), None);

        let limits = RiskLimits { single_flight: true, number_daily_orders: 2, number_daily_fen: 0, daily_cap_fen: 0 };
        assert!(limits.counts_today());
        assert_eq!(limits.refusal(Today { number_orders: 1, ..Today::default() }, 100), None);
        assert_eq!(
            limits.refusal(Today { number_orders: 2, ..Today::default() }, 100),
            Some(RiskRefusal::NumberDailyOrders)
        );

        let amount = RiskLimits { number_daily_fen: 5_000, ..RiskLimits::default() };
        assert_eq!(amount.refusal(Today { number_fen: 4_000, ..Today::default() }, 1_000), None, "meets it");
        assert_eq!(
            amount.refusal(Today { number_fen: 4_001, ..Today::default() }, 1_000),
            Some(RiskRefusal::NumberDailyAmount)
        );

        let cap = RiskLimits { daily_cap_fen: 10_000, ..RiskLimits::default() };
        assert_eq!(
            cap.refusal(Today { merchant_fen: 9_500, ..Today::default() }, 1_000),
            Some(RiskRefusal::MerchantDailyCap)
        );
        assert!(!RiskLimits { daily_cap_fen: -1, ..RiskLimits::default() }.is_valid());
    }

    #[test]
    fn a_day_s_figures_count_each_order_placed_for_the_lines_after_it() {
        let limits = RiskLimits { number_daily_orders: 2, daily_cap_fen: 2_500, ..RiskLimits::default() };
        let mut day = DayFigures { merchant_fen: 500, ..DayFigures::default() };
        day.add("13800138000", 1_000);
        assert_eq!(day.today("13800138000"), Today { number_orders: 1, number_fen: 1_000, merchant_fen: 1_500 });
        assert_eq!(day.today("13900139000"), Today { number_orders: 0, number_fen: 0, merchant_fen: 1_500 });
        assert_eq!(limits.refusal(day.today("13800138000"), 1_000), None);
        day.add("13800138000", 1_000);
        assert_eq!(limits.refusal(day.today("13800138000"), 1), Some(RiskRefusal::NumberDailyOrders));
        assert_eq!(limits.refusal(day.today("13900139000"), 1), Some(RiskRefusal::MerchantDailyCap));
    }
}
