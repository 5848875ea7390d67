//! English topic words in the languages Podlens stems, for English queries about shows
//! in those languages ("german history podcast", "spanish audio drama"): when a term
//! names a language, each of its words also matches its translations in that language's
//! fields, as the same word (one BM25F frequency, so a show holding both is not counted
//! twice).
//!
//! The words are those of the podcast category taxonomy feeds declare with
//! `itunes:category` (Arts, Business, Comedy, Education, Fiction, Health & Fitness,
//! History, Kids & Family, Leisure, Music, News, Religion & Spirituality, Science,
//! Society & Culture, Sports, Technology, True Crime, TV & Film, and their
//! subcategories), plus "interview", the shape most shows take: the topics people
//! search shows by. Forms are written as a reader would (accents and all); each is
//! analysed with its language's stemmer at query time.

use crate::analysis::LanguageFamily;

/// The translated languages, in the column order of [`TRANSLATIONS`]: the stemmed
/// families after English (German, French, Spanish, Portuguese, Italian, Dutch);
/// Swedish, stemmed too, has no column yet.
fn column(family: LanguageFamily) -> Option<usize> {
    LanguageFamily::ALL[1..7].iter().position(|c| *c == family)
}

/// English word (lowercased, ASCII) → its forms in German, French, Spanish, Portuguese,
/// Italian and Dutch (`|` between several; empty where the word is the same or there is
/// none). Sorted by the English word.
#[rustfmt::skip]
const TRANSLATIONS: &[(&str, [&str; 6])] = &[
    ("animals", ["tiere", "animaux", "animales", "animais", "animali", "dieren"]),
    ("art", ["kunst", "", "arte", "arte", "arte", "kunst"]),
    ("arts", ["kunst", "", "arte|artes", "arte|artes", "arte|arti", "kunst"]),
    ("astronomy", ["astronomie", "astronomie", "astronomía", "astronomia", "astronomia", "sterrenkunde"]),
    ("beauty", ["schönheit", "beauté", "belleza", "beleza", "bellezza", "schoonheid"]),
    ("books", ["bücher", "livres", "libros", "livros", "libri", "boeken"]),
    ("business", ["wirtschaft|unternehmen", "entreprise", "negocios|empresa", "negócios|empresa", "affari|impresa", "zaken|ondernemen"]),
    ("careers", ["karriere|beruf", "carrière", "carrera|empleo", "carreira|emprego", "carriera|lavoro", "carrière|loopbaan"]),
    ("children", ["kinder", "enfants", "niños", "crianças", "bambini", "kinderen"]),
    ("christianity", ["christentum", "christianisme|foi", "cristianismo|fe", "cristianismo|fé", "cristianesimo|fede", "christendom|geloof"]),
    ("comedy", ["humor|kabarett|satire", "humour|comédie", "comedia|humor", "comédia|humor", "comicità|umorismo", "humor|komedie|cabaret"]),
    ("crime", ["verbrechen|krimi|kriminalfall", "crimes|criminel", "crimen|crímenes", "crimes", "crimine", "misdaad"]),
    ("culture", ["kultur", "", "cultura", "cultura", "cultura", "cultuur"]),
    ("design", ["gestaltung", "", "diseño", "", "", "ontwerp"]),
    ("documentary", ["dokumentation|doku|reportage", "documentaire|reportage", "documental|reportaje", "documentário|reportagem", "documentario|reportage", "documentaire|reportage"]),
    ("drama", ["hörspiel", "fiction|feuilleton", "radioteatro|ficción", "radionovela|ficção", "radiodramma|sceneggiato", "hoorspel"]),
    ("education", ["bildung|lernen", "éducation|enseignement", "educación|enseñanza", "educação|ensino", "istruzione|educazione", "onderwijs"]),
    ("entertainment", ["unterhaltung", "divertissement", "entretenimiento", "entretenimento", "intrattenimento", "entertainment|vermaak"]),
    ("family", ["familie", "famille", "familia", "família", "famiglia", "gezin|familie"]),
    ("fashion", ["mode", "mode", "moda", "moda", "moda", "mode"]),
    ("fiction", ["fiktion|hörspiel", "", "ficción", "ficção", "finzione|narrativa", "fictie"]),
    ("film", ["kino", "cinéma", "cine|película", "cinema|filme", "cinema", "bioscoop"]),
    ("films", ["filme|kino", "cinéma", "películas|cine", "filmes|cinema", "cinema", "films"]),
    ("food", ["essen|kochen", "cuisine|nourriture", "comida|cocina", "comida|culinária", "cibo|cucina", "eten|koken"]),
    ("football", ["fußball", "foot", "fútbol", "futebol", "calcio", "voetbal"]),
    ("games", ["spiele", "jeux", "juegos", "jogos", "giochi", "spellen"]),
    ("garden", ["garten", "jardin", "jardín", "jardim", "giardino", "tuin"]),
    ("gardening", ["gärtnern|garten", "jardinage", "jardinería", "jardinagem", "giardinaggio", "tuinieren"]),
    ("government", ["regierung|staat", "gouvernement", "gobierno", "governo", "governo", "regering|overheid"]),
    ("health", ["gesundheit", "santé", "salud", "saúde", "salute", "gezondheid"]),
    ("history", ["geschichte", "histoire", "historia", "história", "storia", "geschiedenis"]),
    ("hobbies", ["hobbys|freizeit", "loisirs", "aficiones|pasatiempos", "passatempos", "hobby", "hobby"]),
    ("home", ["zuhause|wohnen", "maison", "hogar", "lar", "", "huis|wonen"]),
    ("interview", ["interview|gespräch", "entretien|entrevue", "entrevista", "entrevista", "intervista", "interview|gesprek"]),
    ("interviews", ["interviews|gespräche", "entretiens|entrevues", "entrevistas", "entrevistas", "interviste", "interviews|gesprekken"]),
    ("investing", ["geldanlage|investieren|börse", "investir|bourse", "invertir|inversión", "investir", "investire", "beleggen"]),
    ("kids", ["kinder", "enfants", "niños", "crianças", "bambini", "kinderen"]),
    ("language", ["sprache", "langue", "idioma|lengua", "língua|idioma", "lingua", "taal"]),
    ("learning", ["lernen", "apprendre|apprentissage", "aprender|aprendizaje", "aprender|aprendizagem", "imparare|apprendimento", "leren"]),
    ("leisure", ["freizeit", "loisirs", "ocio", "lazer", "svago", "ontspanning"]),
    ("mathematics", ["mathematik", "mathématiques", "matemáticas", "matemática", "matematica", "wiskunde"]),
    ("medicine", ["medizin", "médecine", "medicina", "medicina", "medicina", "geneeskunde"]),
    ("mental", ["psychisch|seelisch", "mentale|psychique", "mental", "mental", "mentale", "mentaal|psychisch"]),
    ("movies", ["filme|kino", "films|cinéma", "películas|cine", "filmes|cinema", "film|cinema", "films"]),
    ("music", ["musik", "musique", "música", "música", "musica", "muziek"]),
    ("nature", ["natur", "", "naturaleza", "natureza", "natura", "natuur"]),
    ("news", ["nachrichten|news", "actualités|infos|informations", "noticias|actualidad", "notícias", "notizie|attualità", "nieuws"]),
    ("nutrition", ["ernährung", "alimentation", "nutrición", "nutrição", "nutrizione|alimentazione", "voeding"]),
    ("parenting", ["erziehung|eltern", "parentalité|parents", "crianza|padres", "parentalidade", "genitori", "opvoeding|ouders"]),
    ("pets", ["haustiere", "animaux", "mascotas", "animais", "animali", "huisdieren"]),
    ("philosophy", ["philosophie", "philosophie", "filosofía", "filosofia", "filosofia", "filosofie"]),
    ("physics", ["physik", "physique", "física", "física", "fisica", "natuurkunde"]),
    ("places", ["orte", "", "lugares", "lugares", "luoghi", "plaatsen"]),
    ("politics", ["politik", "politique", "política", "política", "politica", "politiek"]),
    ("relationships", ["beziehungen", "relations|couple|amour", "relaciones|pareja|amor", "relacionamentos|amor", "relazioni|amore", "relaties|liefde"]),
    ("religion", ["", "foi", "religión|fe", "religião|fé", "religione|fede", "geloof"]),
    ("reviews", ["kritiken|rezensionen", "critiques", "críticas|reseñas", "críticas", "recensioni", "recensies"]),
    ("science", ["wissenschaft", "sciences", "ciencia", "ciência", "scienza", "wetenschap"]),
    ("soccer", ["fußball", "foot|football", "fútbol", "futebol", "calcio", "voetbal"]),
    ("society", ["gesellschaft", "société", "sociedad", "sociedade", "società", "samenleving"]),
    ("spirituality", ["spiritualität", "spiritualité", "espiritualidad", "espiritualidade", "spiritualità", "spiritualiteit"]),
    ("sports", ["sport", "sport", "deportes", "esportes|desporto", "sport", "sport"]),
    ("stories", ["geschichten", "histoires|récits", "historias|relatos", "histórias", "storie|racconti", "verhalen"]),
    ("story", ["geschichte", "histoire|récit", "historia|relato", "história", "storia|racconto", "verhaal"]),
    ("technology", ["technik|technologie", "technologie", "tecnología", "tecnologia", "tecnologia", "technologie"]),
    ("travel", ["reisen", "voyage", "viajes", "viagens|viagem", "viaggi", "reizen"]),
    ("tv", ["fernsehen", "télé|télévision", "televisión|tele", "televisão", "televisione", "televisie"]),
];

/// The forms of the English word `folded` in `family` (none for an untranslated word or
/// language).
pub fn translations(folded: &str, family: LanguageFamily) -> Vec<&'static str> {
    let Some(column) = column(family) else {
        return Vec::new();
    };
    // A singular finds its plural's row ("book" → "books").
    let at = TRANSLATIONS
        .binary_search_by(|(word, _)| word.cmp(&folded))
        .or_else(|_| {
            let plural = format!("{folded}s");
            TRANSLATIONS.binary_search_by(|(word, _)| word.cmp(&plural.as_str()))
        });
    at.map(|at| {
        TRANSLATIONS[at].1[column]
            .split('|')
            .filter(|form| !form.is_empty())
            .collect()
    })
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_every_form_is_one_token() {
        assert!(TRANSLATIONS.windows(2).all(|pair| pair[0].0 < pair[1].0));
        for (word, forms) in TRANSLATIONS {
            for (family, cell) in LanguageFamily::ALL[1..7].iter().zip(forms) {
                let stems: Vec<Vec<String>> = cell
                    .split('|')
                    .filter(|form| !form.is_empty())
                    .map(|form| crate::analysis::analyze_in(*family, form))
                    .collect();
                let mut distinct = stems.clone();
                distinct.sort();
                distinct.dedup();
                assert_eq!(
                    distinct.len(),
                    stems.len(),
                    "{word} in {family:?}: {stems:?}"
                );
                for form in cell.split('|').filter(|form| !form.is_empty()) {
                    assert_eq!(
                        crate::analysis::analyze_in(*family, form).len(),
                        1,
                        "{word}: {form:?} in {family:?} is one token"
                    );
                }
            }
        }
    }

    #[test]
    fn words_translate_into_the_named_language_only() {
        assert_eq!(
            translations("history", LanguageFamily::German),
            ["geschichte"]
        );
        assert_eq!(
            translations("news", LanguageFamily::Spanish),
            ["noticias", "actualidad"]
        );
        assert!(translations("history", LanguageFamily::English).is_empty());
        assert!(translations("kubernetes", LanguageFamily::German).is_empty());
        assert_eq!(translations("book", LanguageFamily::Dutch), ["boeken"]);
    }
}
