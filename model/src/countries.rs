//! Countries: every ISO 3166-1 alpha-2 code with its English name, and the 31
//! priority markets of the specification with their high-priority and
//! English-speaking flags. Codes are stored lowercase, as the API writes them;
//! lookups accept any case.

use serde::Serialize;

/// One ISO 3166-1 country.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Country {
    /// The lowercase alpha-2 code, e.g. `gb`.
    pub code: &'static str,
    /// The English short name, e.g. `United Kingdom`.
    pub name: &'static str,
    /// Listed among the priority markets (31 countries).
    pub priority: bool,
    /// One of the high-priority markets (a subset of the priority ones).
    pub high_priority: bool,
    /// A priority market whose podcasts are mostly in English.
    pub english_speaking: bool,
}

#[derive(Clone, Copy)]
enum Priority {
    High,
    Listed,
    None,
}

impl Country {
    const fn new(
        code: &'static str,
        name: &'static str,
        priority: Priority,
        english_speaking: bool,
    ) -> Self {
        let (priority, high_priority) = match priority {
            Priority::High => (true, true),
            Priority::Listed => (true, false),
            Priority::None => (false, false),
        };
        Country {
            code,
            name,
            priority,
            high_priority,
            english_speaking,
        }
    }
}

/// Every ISO 3166-1 alpha-2 country, sorted by code.
pub static COUNTRIES: &[Country] = &[
    Country::new("ad", "Andorra", Priority::None, false),
    Country::new("ae", "United Arab Emirates", Priority::None, false),
    Country::new("af", "Afghanistan", Priority::None, false),
    Country::new("ag", "Antigua and Barbuda", Priority::None, false),
    Country::new("ai", "Anguilla", Priority::None, false),
    Country::new("al", "Albania", Priority::None, false),
    Country::new("am", "Armenia", Priority::None, false),
    Country::new("ao", "Angola", Priority::None, false),
    Country::new("aq", "Antarctica", Priority::None, false),
    Country::new("ar", "Argentina", Priority::Listed, false),
    Country::new("as", "American Samoa", Priority::None, false),
    Country::new("at", "Austria", Priority::Listed, false),
    Country::new("au", "Australia", Priority::High, true),
    Country::new("aw", "Aruba", Priority::None, false),
    Country::new("ax", "Åland Islands", Priority::None, false),
    Country::new("az", "Azerbaijan", Priority::None, false),
    Country::new("ba", "Bosnia and Herzegovina", Priority::None, false),
    Country::new("bb", "Barbados", Priority::None, false),
    Country::new("bd", "Bangladesh", Priority::None, false),
    Country::new("be", "Belgium", Priority::Listed, false),
    Country::new("bf", "Burkina Faso", Priority::None, false),
    Country::new("bg", "Bulgaria", Priority::None, false),
    Country::new("bh", "Bahrain", Priority::None, false),
    Country::new("bi", "Burundi", Priority::None, false),
    Country::new("bj", "Benin", Priority::None, false),
    Country::new("bl", "Saint Barthélemy", Priority::None, false),
    Country::new("bm", "Bermuda", Priority::None, false),
    Country::new("bn", "Brunei Darussalam", Priority::None, false),
    Country::new("bo", "Bolivia", Priority::None, false),
    Country::new(
        "bq",
        "Bonaire, Sint Eustatius and Saba",
        Priority::None,
        false,
    ),
    Country::new("br", "Brazil", Priority::High, false),
    Country::new("bs", "Bahamas", Priority::None, false),
    Country::new("bt", "Bhutan", Priority::None, false),
    Country::new("bv", "Bouvet Island", Priority::None, false),
    Country::new("bw", "Botswana", Priority::None, false),
    Country::new("by", "Belarus", Priority::None, false),
    Country::new("bz", "Belize", Priority::None, false),
    Country::new("ca", "Canada", Priority::High, true),
    Country::new("cc", "Cocos (Keeling) Islands", Priority::None, false),
    Country::new(
        "cd",
        "Congo, The Democratic Republic of the",
        Priority::None,
        false,
    ),
    Country::new("cf", "Central African Republic", Priority::None, false),
    Country::new("cg", "Congo", Priority::None, false),
    Country::new("ch", "Switzerland", Priority::Listed, false),
    Country::new("ci", "Côte d'Ivoire", Priority::None, false),
    Country::new("ck", "Cook Islands", Priority::None, false),
    Country::new("cl", "Chile", Priority::Listed, false),
    Country::new("cm", "Cameroon", Priority::None, false),
    Country::new("cn", "China", Priority::None, false),
    Country::new("co", "Colombia", Priority::Listed, false),
    Country::new("cr", "Costa Rica", Priority::None, false),
    Country::new("cu", "Cuba", Priority::None, false),
    Country::new("cv", "Cabo Verde", Priority::None, false),
    Country::new("cw", "Curaçao", Priority::None, false),
    Country::new("cx", "Christmas Island", Priority::None, false),
    Country::new("cy", "Cyprus", Priority::None, false),
    Country::new("cz", "Czechia", Priority::None, false),
    Country::new("de", "Germany", Priority::High, false),
    Country::new("dj", "Djibouti", Priority::None, false),
    Country::new("dk", "Denmark", Priority::Listed, false),
    Country::new("dm", "Dominica", Priority::None, false),
    Country::new("do", "Dominican Republic", Priority::None, false),
    Country::new("dz", "Algeria", Priority::None, false),
    Country::new("ec", "Ecuador", Priority::None, false),
    Country::new("ee", "Estonia", Priority::None, false),
    Country::new("eg", "Egypt", Priority::None, false),
    Country::new("eh", "Western Sahara", Priority::None, false),
    Country::new("er", "Eritrea", Priority::None, false),
    Country::new("es", "Spain", Priority::High, false),
    Country::new("et", "Ethiopia", Priority::None, false),
    Country::new("fi", "Finland", Priority::Listed, false),
    Country::new("fj", "Fiji", Priority::None, false),
    Country::new("fk", "Falkland Islands (Malvinas)", Priority::None, false),
    Country::new(
        "fm",
        "Micronesia, Federated States of",
        Priority::None,
        false,
    ),
    Country::new("fo", "Faroe Islands", Priority::None, false),
    Country::new("fr", "France", Priority::High, false),
    Country::new("ga", "Gabon", Priority::None, false),
    Country::new("gb", "United Kingdom", Priority::High, true),
    Country::new("gd", "Grenada", Priority::None, false),
    Country::new("ge", "Georgia", Priority::None, false),
    Country::new("gf", "French Guiana", Priority::None, false),
    Country::new("gg", "Guernsey", Priority::None, false),
    Country::new("gh", "Ghana", Priority::None, false),
    Country::new("gi", "Gibraltar", Priority::None, false),
    Country::new("gl", "Greenland", Priority::None, false),
    Country::new("gm", "Gambia", Priority::None, false),
    Country::new("gn", "Guinea", Priority::None, false),
    Country::new("gp", "Guadeloupe", Priority::None, false),
    Country::new("gq", "Equatorial Guinea", Priority::None, false),
    Country::new("gr", "Greece", Priority::None, false),
    Country::new(
        "gs",
        "South Georgia and the South Sandwich Islands",
        Priority::None,
        false,
    ),
    Country::new("gt", "Guatemala", Priority::None, false),
    Country::new("gu", "Guam", Priority::None, false),
    Country::new("gw", "Guinea-Bissau", Priority::None, false),
    Country::new("gy", "Guyana", Priority::None, false),
    Country::new("hk", "Hong Kong", Priority::None, false),
    Country::new(
        "hm",
        "Heard Island and McDonald Islands",
        Priority::None,
        false,
    ),
    Country::new("hn", "Honduras", Priority::None, false),
    Country::new("hr", "Croatia", Priority::None, false),
    Country::new("ht", "Haiti", Priority::None, false),
    Country::new("hu", "Hungary", Priority::None, false),
    Country::new("id", "Indonesia", Priority::None, false),
    Country::new("ie", "Ireland", Priority::High, true),
    Country::new("il", "Israel", Priority::None, false),
    Country::new("im", "Isle of Man", Priority::None, false),
    Country::new("in", "India", Priority::Listed, true),
    Country::new(
        "io",
        "British Indian Ocean Territory",
        Priority::None,
        false,
    ),
    Country::new("iq", "Iraq", Priority::None, false),
    Country::new("ir", "Iran", Priority::None, false),
    Country::new("is", "Iceland", Priority::None, false),
    Country::new("it", "Italy", Priority::High, false),
    Country::new("je", "Jersey", Priority::None, false),
    Country::new("jm", "Jamaica", Priority::None, false),
    Country::new("jo", "Jordan", Priority::None, false),
    Country::new("jp", "Japan", Priority::Listed, false),
    Country::new("ke", "Kenya", Priority::None, false),
    Country::new("kg", "Kyrgyzstan", Priority::None, false),
    Country::new("kh", "Cambodia", Priority::None, false),
    Country::new("ki", "Kiribati", Priority::None, false),
    Country::new("km", "Comoros", Priority::None, false),
    Country::new("kn", "Saint Kitts and Nevis", Priority::None, false),
    Country::new("kp", "North Korea", Priority::None, false),
    Country::new("kr", "South Korea", Priority::Listed, false),
    Country::new("kw", "Kuwait", Priority::None, false),
    Country::new("ky", "Cayman Islands", Priority::None, false),
    Country::new("kz", "Kazakhstan", Priority::None, false),
    Country::new("la", "Laos", Priority::None, false),
    Country::new("lb", "Lebanon", Priority::None, false),
    Country::new("lc", "Saint Lucia", Priority::None, false),
    Country::new("li", "Liechtenstein", Priority::None, false),
    Country::new("lk", "Sri Lanka", Priority::None, false),
    Country::new("lr", "Liberia", Priority::None, false),
    Country::new("ls", "Lesotho", Priority::None, false),
    Country::new("lt", "Lithuania", Priority::None, false),
    Country::new("lu", "Luxembourg", Priority::None, false),
    Country::new("lv", "Latvia", Priority::None, false),
    Country::new("ly", "Libya", Priority::None, false),
    Country::new("ma", "Morocco", Priority::None, false),
    Country::new("mc", "Monaco", Priority::None, false),
    Country::new("md", "Moldova", Priority::None, false),
    Country::new("me", "Montenegro", Priority::None, false),
    Country::new("mf", "Saint Martin (French part)", Priority::None, false),
    Country::new("mg", "Madagascar", Priority::None, false),
    Country::new("mh", "Marshall Islands", Priority::None, false),
    Country::new("mk", "North Macedonia", Priority::None, false),
    Country::new("ml", "Mali", Priority::None, false),
    Country::new("mm", "Myanmar", Priority::None, false),
    Country::new("mn", "Mongolia", Priority::None, false),
    Country::new("mo", "Macao", Priority::None, false),
    Country::new("mp", "Northern Mariana Islands", Priority::None, false),
    Country::new("mq", "Martinique", Priority::None, false),
    Country::new("mr", "Mauritania", Priority::None, false),
    Country::new("ms", "Montserrat", Priority::None, false),
    Country::new("mt", "Malta", Priority::None, false),
    Country::new("mu", "Mauritius", Priority::None, false),
    Country::new("mv", "Maldives", Priority::None, false),
    Country::new("mw", "Malawi", Priority::None, false),
    Country::new("mx", "Mexico", Priority::High, false),
    Country::new("my", "Malaysia", Priority::None, false),
    Country::new("mz", "Mozambique", Priority::None, false),
    Country::new("na", "Namibia", Priority::None, false),
    Country::new("nc", "New Caledonia", Priority::None, false),
    Country::new("ne", "Niger", Priority::None, false),
    Country::new("nf", "Norfolk Island", Priority::None, false),
    Country::new("ng", "Nigeria", Priority::None, false),
    Country::new("ni", "Nicaragua", Priority::None, false),
    Country::new("nl", "Netherlands", Priority::Listed, false),
    Country::new("no", "Norway", Priority::Listed, false),
    Country::new("np", "Nepal", Priority::None, false),
    Country::new("nr", "Nauru", Priority::None, false),
    Country::new("nu", "Niue", Priority::None, false),
    Country::new("nz", "New Zealand", Priority::High, true),
    Country::new("om", "Oman", Priority::None, false),
    Country::new("pa", "Panama", Priority::None, false),
    Country::new("pe", "Peru", Priority::None, false),
    Country::new("pf", "French Polynesia", Priority::None, false),
    Country::new("pg", "Papua New Guinea", Priority::None, false),
    Country::new("ph", "Philippines", Priority::Listed, true),
    Country::new("pk", "Pakistan", Priority::None, false),
    Country::new("pl", "Poland", Priority::Listed, false),
    Country::new("pm", "Saint Pierre and Miquelon", Priority::None, false),
    Country::new("pn", "Pitcairn", Priority::None, false),
    Country::new("pr", "Puerto Rico", Priority::None, false),
    Country::new("ps", "Palestine, State of", Priority::None, false),
    Country::new("pt", "Portugal", Priority::Listed, false),
    Country::new("pw", "Palau", Priority::None, false),
    Country::new("py", "Paraguay", Priority::None, false),
    Country::new("qa", "Qatar", Priority::None, false),
    Country::new("re", "Réunion", Priority::None, false),
    Country::new("ro", "Romania", Priority::None, false),
    Country::new("rs", "Serbia", Priority::None, false),
    Country::new("ru", "Russian Federation", Priority::None, false),
    Country::new("rw", "Rwanda", Priority::None, false),
    Country::new("sa", "Saudi Arabia", Priority::None, false),
    Country::new("sb", "Solomon Islands", Priority::None, false),
    Country::new("sc", "Seychelles", Priority::None, false),
    Country::new("sd", "Sudan", Priority::None, false),
    Country::new("se", "Sweden", Priority::High, false),
    Country::new("sg", "Singapore", Priority::Listed, true),
    Country::new(
        "sh",
        "Saint Helena, Ascension and Tristan da Cunha",
        Priority::None,
        false,
    ),
    Country::new("si", "Slovenia", Priority::None, false),
    Country::new("sj", "Svalbard and Jan Mayen", Priority::None, false),
    Country::new("sk", "Slovakia", Priority::None, false),
    Country::new("sl", "Sierra Leone", Priority::None, false),
    Country::new("sm", "San Marino", Priority::None, false),
    Country::new("sn", "Senegal", Priority::None, false),
    Country::new("so", "Somalia", Priority::None, false),
    Country::new("sr", "Suriname", Priority::None, false),
    Country::new("ss", "South Sudan", Priority::None, false),
    Country::new("st", "Sao Tome and Principe", Priority::None, false),
    Country::new("sv", "El Salvador", Priority::None, false),
    Country::new("sx", "Sint Maarten (Dutch part)", Priority::None, false),
    Country::new("sy", "Syria", Priority::None, false),
    Country::new("sz", "Eswatini", Priority::None, false),
    Country::new("tc", "Turks and Caicos Islands", Priority::None, false),
    Country::new("td", "Chad", Priority::None, false),
    Country::new("tf", "French Southern Territories", Priority::None, false),
    Country::new("tg", "Togo", Priority::None, false),
    Country::new("th", "Thailand", Priority::None, false),
    Country::new("tj", "Tajikistan", Priority::None, false),
    Country::new("tk", "Tokelau", Priority::None, false),
    Country::new("tl", "Timor-Leste", Priority::None, false),
    Country::new("tm", "Turkmenistan", Priority::None, false),
    Country::new("tn", "Tunisia", Priority::None, false),
    Country::new("to", "Tonga", Priority::None, false),
    Country::new("tr", "Türkiye", Priority::None, false),
    Country::new("tt", "Trinidad and Tobago", Priority::None, false),
    Country::new("tv", "Tuvalu", Priority::None, false),
    Country::new("tw", "Taiwan", Priority::None, false),
    Country::new("tz", "Tanzania", Priority::None, false),
    Country::new("ua", "Ukraine", Priority::None, false),
    Country::new("ug", "Uganda", Priority::None, false),
    Country::new(
        "um",
        "United States Minor Outlying Islands",
        Priority::None,
        false,
    ),
    Country::new("us", "United States", Priority::High, true),
    Country::new("uy", "Uruguay", Priority::None, false),
    Country::new("uz", "Uzbekistan", Priority::None, false),
    Country::new("va", "Holy See (Vatican City State)", Priority::None, false),
    Country::new(
        "vc",
        "Saint Vincent and the Grenadines",
        Priority::None,
        false,
    ),
    Country::new("ve", "Venezuela", Priority::None, false),
    Country::new("vg", "Virgin Islands, British", Priority::None, false),
    Country::new("vi", "Virgin Islands, U.S.", Priority::None, false),
    Country::new("vn", "Vietnam", Priority::None, false),
    Country::new("vu", "Vanuatu", Priority::None, false),
    Country::new("wf", "Wallis and Futuna", Priority::None, false),
    Country::new("ws", "Samoa", Priority::None, false),
    Country::new("ye", "Yemen", Priority::None, false),
    Country::new("yt", "Mayotte", Priority::None, false),
    Country::new("za", "South Africa", Priority::Listed, true),
    Country::new("zm", "Zambia", Priority::None, false),
    Country::new("zw", "Zimbabwe", Priority::None, false),
];

/// The country with this alpha-2 code, in any case (`"GB"`, `"gb"`).
pub fn country(code: &str) -> Option<&'static Country> {
    let code = code.trim();
    if code.len() != 2 || !code.is_ascii() {
        return None;
    }
    let lowered = code.to_ascii_lowercase();
    COUNTRIES
        .binary_search_by(|candidate| candidate.code.cmp(lowered.as_str()))
        .ok()
        .map(|index| &COUNTRIES[index])
}

/// Whether `code` is an ISO 3166-1 alpha-2 code (any case).
pub fn is_country_code(code: &str) -> bool {
    country(code).is_some()
}

/// The 31 priority countries, in code order.
pub fn priority_countries() -> impl Iterator<Item = &'static Country> {
    COUNTRIES.iter().filter(|country| country.priority)
}

/// The high-priority countries, in code order.
pub fn high_priority_countries() -> impl Iterator<Item = &'static Country> {
    COUNTRIES.iter().filter(|country| country.high_priority)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// SPEC.md §9: "High priority: us, gb, ca, au, nz, ie, de, fr, se, es, it, br, mx."
    const SPEC_HIGH_PRIORITY: &str = "us, gb, ca, au, nz, ie, de, fr, se, es, it, br, mx";

    #[test]
    fn every_iso_code_is_present_once_and_sorted() {
        assert_eq!(COUNTRIES.len(), 249);
        assert!(COUNTRIES.windows(2).all(|pair| pair[0].code < pair[1].code));
        let names: BTreeSet<_> = COUNTRIES.iter().map(|country| country.name).collect();
        assert_eq!(names.len(), COUNTRIES.len(), "names are unique");
        for entry in COUNTRIES {
            assert_eq!(entry.code.len(), 2);
            assert!(entry.code.bytes().all(|byte| byte.is_ascii_lowercase()));
            assert!(!entry.name.is_empty());
        }
    }

    #[test]
    fn at_least_the_specs_190_codes() {
        assert!(COUNTRIES.len() >= 190);
    }

    #[test]
    fn lookup_ignores_case_and_rejects_non_codes() {
        assert_eq!(country("GB").map(|c| c.name), Some("United Kingdom"));
        assert_eq!(country("gb").map(|c| c.code), Some("gb"));
        assert_eq!(country("De").map(|c| c.name), Some("Germany"));
        assert_eq!(country("kr").map(|c| c.name), Some("South Korea"));
        for bad in ["", "g", "gbr", "zz", "uk", "éé", "1a", " "] {
            assert!(!is_country_code(bad), "{bad:?}");
        }
        assert!(is_country_code("US"));
        assert!(is_country_code("ax"));
    }

    #[test]
    fn priority_countries_match_the_spec() {
        assert_eq!(priority_countries().count(), 31);
        let high: BTreeSet<&str> = high_priority_countries().map(|c| c.code).collect();
        let expected: BTreeSet<&str> = SPEC_HIGH_PRIORITY.split(", ").collect();
        assert_eq!(high, expected);
        assert!(high_priority_countries().all(|c| c.priority));
    }

    #[test]
    fn english_speaking_flags_only_on_priority_countries() {
        let english: BTreeSet<&str> = COUNTRIES
            .iter()
            .filter(|c| c.english_speaking)
            .map(|c| c.code)
            .collect();
        let expected: BTreeSet<&str> = ["au", "ca", "gb", "ie", "in", "nz", "ph", "sg", "us", "za"]
            .into_iter()
            .collect();
        assert_eq!(english, expected);
        assert!(
            COUNTRIES
                .iter()
                .filter(|c| c.english_speaking)
                .all(|c| c.priority)
        );
    }
}
