//! Scoring: the authority score with its published weights and formulas, Wilson lower
//! bounds for ratings, and chart movements (previous position, change, days and streaks).
