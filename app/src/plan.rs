//! The caller's plan as the API needs it. The rules live in `podlens_model::plans`;
//! this module only turns stored plan names into [`Plan`]s with API errors.

pub use podlens_model::Plan;

use crate::error::AppError;

/// The plan of a stored plan name.
pub fn plan_of(name: &str) -> Result<Plan, AppError> {
    Plan::parse(name)
        .ok_or_else(|| AppError::Internal(format!("unknown plan {name:?} in the app database")))
}

/// The stored name of a plan a team can have (every tier but public), or a clear error.
pub fn stored_plan_name(name: &str) -> Result<&'static str, AppError> {
    let wanted = name.trim().to_lowercase();
    match Plan::parse(&wanted) {
        Some(plan) if plan != Plan::Public => Ok(plan.as_str()),
        _ => Err(AppError::Invalid(format!(
            "unknown plan {name:?}; expected one of free, individual, business, agency, admin"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_team_plans_can_be_stored() {
        assert_eq!(stored_plan_name(" Business ").unwrap(), "business");
        assert!(stored_plan_name("public").is_err());
        assert!(stored_plan_name("gold").is_err());
    }
}
