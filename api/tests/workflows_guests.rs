//! Guest profiles over HTTP on a real socket: the create call and the onboarding form
//! with the messages of SPEC.md §5, the status pipeline to DONE, uploads and their
//! limits, bio, contact and social updates, regeneration, downloads and archiving.

mod common;
mod workflows_http;

use serde_json::{Value, json};
use workflows_http::{Http, start};

const REQUIRED_SUFFIX: &str =
    " is required. The more detailed the better so our AI will work better.";

async fn create(http: &Http, key: &str, body: Value) -> Value {
    http.post("/api/v1/guest-profiles", key, body)
        .await
        .data()
        .clone()
}

fn ada() -> Value {
    json!({
        "firstName": "Ada",
        "lastName": "Lovelace",
        "shortBio": "Ada writes about analytical engines. She explains how machines can compose music. She lives in London.",
        "topicsToDiscuss": ["analytical engines", "computing history"],
        "goals": ["promote the notes"],
        "email": "ada@example.com",
    })
}

async fn done(http: &Http, key: &str, id: &str) -> Value {
    http.wait_for(&format!("/api/v1/guest-profiles/{id}"), key, |data| {
        matches!(
            data["processingStatus"].as_str(),
            Some("DONE") | Some("ERROR")
        )
    })
    .await
}

#[tokio::test]
async fn required_fields_answer_with_the_spec_messages() {
    let http = start().await;
    let key = http.key("guests-required@example.com", "business");
    let mut no_bio = ada();
    no_bio.as_object_mut().unwrap().remove("shortBio");
    let answer = http.post("/api/v1/guest-profiles", &key, no_bio).await;
    assert_eq!(answer.status, 400);
    assert_eq!(answer.message(), format!("Short bio{REQUIRED_SUFFIX}"));
    let mut blank = ada();
    blank["shortBio"] = json!("   ");
    let answer = http.post("/api/v1/guest-profiles", &key, blank).await;
    assert_eq!(answer.message(), format!("Short bio{REQUIRED_SUFFIX}"));
    let mut no_first = ada();
    no_first.as_object_mut().unwrap().remove("firstName");
    let answer = http.post("/api/v1/guest-profiles", &key, no_first).await;
    assert_eq!(answer.message(), "First name is required");

    let form = json!({
        "firstName": "Grace", "lastName": "Hopper",
        "shortBio": "Compiler pioneer.", "goals": "Talk about compilers",
        "expertise": "COBOL; compilers", "topicsToDiscuss": "debugging, compilers",
        "linkedIn": "", "websiteUrl": ""
    });
    for (field, label) in [
        ("shortBio", "Short bio"),
        ("goals", "Goals"),
        ("expertise", "Expertise"),
        ("topicsToDiscuss", "Topics to discuss"),
    ] {
        let mut body = form.clone();
        body[field] = json!("");
        let answer = http
            .post("/api/v1/guest-profiles/onboarding-form", &key, body)
            .await;
        assert_eq!(answer.status, 400, "{field}");
        assert_eq!(answer.message(), format!("{label}{REQUIRED_SUFFIX}"));
    }
    let mut bad_url = form.clone();
    bad_url["websiteUrl"] = json!("not a url");
    let answer = http
        .post("/api/v1/guest-profiles/onboarding-form", &key, bad_url)
        .await;
    assert_eq!(
        answer.message(),
        "Website URL must be a valid http or https URL"
    );

    // Empty optional URLs are accepted; the form's lists are split.
    let created = http
        .post("/api/v1/guest-profiles/onboarding-form", &key, form)
        .await;
    let id = created.data()["guestProfileId"]
        .as_str()
        .unwrap()
        .to_owned();
    let profile = done(&http, &key, &id).await;
    assert_eq!(profile["processingStatus"], "DONE");
    assert_eq!(profile["websiteUrl"], Value::Null);
    assert_eq!(
        profile["guestBio"]["areasOfExpertise"],
        json!(["COBOL", "compilers"])
    );
    assert_eq!(
        profile["guestBio"]["topicsToDiscuss"],
        json!(["debugging", "compilers"])
    );
}

#[tokio::test]
async fn a_profile_is_built_in_the_background_with_its_project() {
    let http = start().await;
    let key = http.key("guests-pipeline@example.com", "business");
    let created = create(&http, &key, ada()).await;
    let id = created["guestProfileId"].as_str().unwrap().to_owned();
    let project_slug = created["projectSlug"].as_str().unwrap().to_owned();
    let profile = done(&http, &key, &id).await;
    assert_eq!(profile["processingStatus"], "DONE", "{profile}");
    assert_eq!(profile["status"], "ACTIVE");
    assert_eq!(profile["name"], "Ada Lovelace");
    assert_eq!(profile["createdBy"]["email"], "guests-pipeline@example.com");
    let bio = &profile["guestBio"];
    // The short bio is the two most central sentences of the one given, in order.
    let given = ada()["shortBio"].as_str().unwrap().to_owned();
    let short = bio["shortBio"].as_str().unwrap();
    assert!(given.starts_with(short) || given.contains(short), "{short}");
    assert_eq!(short.matches(". ").count() + 1, 2, "{short}");
    assert_eq!(
        bio["topicsToDiscuss"],
        json!(["analytical engines", "computing history"])
    );

    // Found by project id and project slug too; the project is listed.
    let by_project = http
        .get(
            &format!(
                "/api/v1/guest-profiles/{}",
                created["projectId"].as_str().unwrap()
            ),
            &key,
        )
        .await;
    assert_eq!(by_project.data()["guestProfileId"], id.as_str());
    let by_slug = http
        .get(&format!("/api/v1/guest-profiles/{project_slug}"), &key)
        .await;
    assert_eq!(by_slug.data()["guestProfileId"], id.as_str());
    let projects = http.get("/api/v1/projects", &key).await;
    assert!(projects.body.to_string().contains("Guest: Ada Lovelace"));
    // The project carries the profile it was made for, in the SDK's shape.
    let listed = projects.data()["projects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|project| project["slug"] == project_slug.as_str())
        .cloned()
        .unwrap();
    let linked = &listed["linkedGuestProfile"];
    assert_eq!(linked["id"], id.as_str(), "{listed}");
    assert_eq!(linked["name"], "Ada Lovelace");
    // The linked slug names the same profile.
    let linked_slug = linked["slug"].as_str().unwrap();
    let by_linked_slug = http
        .get(&format!("/api/v1/guest-profiles/{linked_slug}"), &key)
        .await;
    assert_eq!(by_linked_slug.data()["guestProfileId"], id.as_str());
    assert_eq!(linked["status"], "ACTIVE");
    assert_eq!(linked["appearancesCount"], 0);

    // Another team cannot see it.
    let other = http.key("guests-other@example.com", "business");
    let hidden = http
        .get(&format!("/api/v1/guest-profiles/{id}"), &other)
        .await;
    assert_eq!(hidden.status, 404);
    assert_eq!(hidden.message(), format!("Guest profile not found: {id}"));
}

#[tokio::test]
async fn uploads_are_limited_and_their_text_feeds_the_bio() {
    let http = start().await;
    let key = http.key("guests-upload@example.com", "business");
    // The first bio, written by the AI at creation, is an AI assist: it used to be free.
    let answer = http.post("/api/v1/guest-profiles", &key, ada()).await;
    assert_eq!(
        answer.usage_count(),
        Some(1),
        "the creation's AI bio is charged"
    );
    let created = answer.data().clone();
    let id = created["guestProfileId"].as_str().unwrap().to_owned();
    let first_bio = done(&http, &key, &id).await["guestBio"].clone();
    let path = format!("/api/v1/guest-profiles/{id}/documents");

    let bad_field = http
        .upload(&path, &key, &[("file", "notes.txt", b"x".to_vec())])
        .await;
    assert_eq!(bad_field.status, 400);
    assert_eq!(
        bad_field.message(),
        "Invalid field format. Expected format is user_file:{number}."
    );
    let zero = http
        .upload(&path, &key, &[("user_file:0", "notes.txt", b"x".to_vec())])
        .await;
    assert_eq!(
        zero.message(),
        "Invalid field format. Expected format is user_file:{number}."
    );
    let exe = http
        .upload(&path, &key, &[("user_file:1", "tool.exe", b"x".to_vec())])
        .await;
    assert_eq!(
        exe.message(),
        "File type not allowed; allowed types are jpg, jpeg, png, pdf, docx, csv and txt"
    );
    let big = http
        .upload(
            &path,
            &key,
            &[("user_file:1", "big.txt", vec![b'a'; 5_242_881])],
        )
        .await;
    assert_eq!(
        big.message(),
        "File is too large; the maximum is 5 MB (5242880 bytes)"
    );
    let exactly = http
        .upload(
            &path,
            &key,
            &[("user_file:1", "exact.csv", vec![b'a'; 5_242_880])],
        )
        .await;
    assert_eq!(exactly.status, 200, "{}", exactly.body);
    let six: Vec<(String, String)> = (1..=6)
        .map(|n| (format!("user_file:{n}"), format!("f{n}.txt")))
        .collect();
    let six: Vec<(&str, &str, Vec<u8>)> = six
        .iter()
        .map(|(field, name)| (field.as_str(), name.as_str(), b"x".to_vec()))
        .collect();
    let too_many = http.upload(&path, &key, &six).await;
    assert_eq!(
        too_many.message(),
        "Too many files; at most 5 files can be uploaded"
    );

    let notes = "Ada translated the notes on the analytical engine of Babbage. \
                 The notes on the analytical engine describe an algorithm for Bernoulli numbers. \
                 The analytical engine notes made Ada the first programmer of the engine.";
    let uploaded = http
        .upload(
            &path,
            &key,
            &[("documents", "notes.txt", notes.as_bytes().to_vec())],
        )
        .await;
    let item = &uploaded.data()["uploadedDocuments"][0];
    assert_eq!(item["fileName"], "notes.txt");
    assert_eq!(item["fileSize"].as_u64().unwrap() as usize, notes.len());
    let profile = http
        .wait_for(&format!("/api/v1/guest-profiles/{id}"), &key, |data| {
            data["processingStatus"] == "DONE"
                && data["documents"]
                    .as_array()
                    .is_some_and(|docs| docs.iter().all(|d| d["status"] != "uploaded"))
        })
        .await;
    let docs = profile["documents"].as_array().unwrap();
    assert_eq!(docs.len(), 2);
    // Documents added later keep the bio: no AI call that nobody was charged for.
    assert_eq!(profile["guestBio"], first_bio);
    let text_doc = docs.iter().find(|d| d["name"] == "notes.txt").unwrap();
    assert_eq!(text_doc["status"], "processed");
    assert!(text_doc["dateExtracted"].is_string());

    let regenerated = http
        .post(
            &format!("/api/v1/guest-profiles/{id}/regenerate-bio"),
            &key,
            json!({}),
        )
        .await;
    assert_eq!(regenerated.usage_count(), Some(2), "after the creation's");
    let long_bio = regenerated.data()["result"]["answer"]["longBio"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        long_bio.contains(
            "The notes on the analytical engine describe an algorithm for Bernoulli numbers."
        ),
        "{long_bio}"
    );
    let stored = http
        .get(&format!("/api/v1/guest-profiles/{id}"), &key)
        .await;
    assert_eq!(stored.data()["guestBio"]["longBio"], long_bio.as_str());
}

/// Guest document uploads had no total cap: 25 MB a request, repeatable until the
/// server's disk filled. A team's uploads now stop at its plan's storage (free: 25 MB),
/// with a 403 naming the limit, and a refused upload keeps nothing.
#[tokio::test]
async fn guest_document_uploads_stop_at_the_teams_storage_quota() {
    const MB: usize = 1024 * 1024;
    let http = start().await;
    let key = http.key("guests-quota@example.com", "free");
    let cookie = http.session_cookie(&key);
    let created = http
        .as_browser("POST", "/api/v1/guest-profiles", Some(&cookie), Some(ada()))
        .await;
    let id = created.data()["guestProfileId"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("/api/v1/guest-profiles/{id}/documents");
    let files = |count: usize, size: usize| -> Vec<(String, String, Vec<u8>)> {
        (1..=count)
            .map(|n| {
                (
                    format!("user_file:{n}"),
                    format!("part{n}.txt"),
                    vec![b'a'; size],
                )
            })
            .collect()
    };
    let upload = |parts: Vec<(String, String, Vec<u8>)>| {
        let (http, path, cookie) = (&http, &path, &cookie);
        async move {
            let parts: Vec<(&str, &str, Vec<u8>)> = parts
                .iter()
                .map(|(field, name, bytes)| (field.as_str(), name.as_str(), bytes.clone()))
                .collect();
            http.upload_as_browser(path, cookie, &parts).await
        }
    };
    let stored_files = || {
        std::fs::read_dir(http.state.data_dir.join("guest-documents").join(&id))
            .map(|entries| entries.count())
            .unwrap_or(0)
    };

    let first = upload(files(4, 5 * MB)).await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(stored_files(), 4);

    let past = upload(files(2, 5 * MB)).await;
    assert_eq!(past.status, 403, "{}", past.body);
    assert_eq!(
        past.message(),
        "Guest document storage limit reached: the free plan allows 25.0 MB of guest documents per team; 20.0 MB are stored and this upload adds 10.0 MB. Upgrade your plan to upload more."
    );
    assert_eq!(stored_files(), 4, "a refused upload keeps no file");

    let to_the_limit = upload(files(1, 5 * MB)).await;
    assert_eq!(to_the_limit.status, 200, "{}", to_the_limit.body);
    let one_byte_more = upload(files(1, 1)).await;
    assert_eq!(one_byte_more.status, 403, "{}", one_byte_more.body);
    assert!(
        one_byte_more.message().contains("25.0 MB are stored"),
        "{}",
        one_byte_more.body
    );
    assert_eq!(stored_files(), 5);
    let profile = http
        .as_browser(
            "GET",
            &format!("/api/v1/guest-profiles/{id}"),
            Some(&cookie),
            None,
        )
        .await;
    assert_eq!(profile.data()["documents"].as_array().unwrap().len(), 5);
}

#[tokio::test]
async fn updates_downloads_and_archiving() {
    let http = start().await;
    let key = http.key("guests-update@example.com", "business");
    let created = create(&http, &key, ada()).await;
    let id = created["guestProfileId"].as_str().unwrap().to_owned();
    done(&http, &key, &id).await;
    let base = format!("/api/v1/guest-profiles/{id}");

    let empty = http
        .call("PUT", &format!("{base}/bio"), &key, Some(json!({})))
        .await;
    assert_eq!(
        empty.message(),
        "At least one field must be provided to update a bio"
    );
    let blank = http
        .call(
            "PUT",
            &format!("{base}/bio"),
            &key,
            Some(json!({"shortBio": ""})),
        )
        .await;
    assert_eq!(blank.message(), format!("Short bio{REQUIRED_SUFFIX}"));
    let bio = http
        .call(
            "PUT",
            &format!("{base}/bio"),
            &key,
            Some(json!({"longBio": "A longer story.", "goals": ["book 5 shows"]})),
        )
        .await;
    assert_eq!(bio.data()["success"], true);

    let bad_email = http
        .call(
            "PUT",
            &format!("{base}/contact-details"),
            &key,
            Some(json!({"email": "nope"})),
        )
        .await;
    assert_eq!(bad_email.message(), "Invalid email address");
    let contact = http
        .call(
            "PUT",
            &format!("{base}/contact-details"),
            &key,
            Some(json!({"phone": "+44 20 7946 0000", "companyName": "Engines Ltd", "email": ""})),
        )
        .await;
    assert_eq!(contact.data()["success"], true);

    let bad_social = http
        .call(
            "PUT",
            &format!("{base}/social-media-links"),
            &key,
            Some(json!([{"socialMediaType": "twitter", "url": "https://twitter.com/"}])),
        )
        .await;
    assert_eq!(bad_social.status, 400, "{}", bad_social.body);
    let socials = http
        .call(
            "PUT",
            &format!("{base}/social-media-links"),
            &key,
            Some(json!([{"socialMediaType": "github", "url": "https://github.com/ada-lovelace"}])),
        )
        .await;
    assert_eq!(socials.data()["success"], true);

    let profile = http.get(&base, &key).await;
    let data = profile.data();
    assert_eq!(data["guestBio"]["longBio"], "A longer story.");
    assert_eq!(data["guestBio"]["goals"], json!(["book 5 shows"]));
    assert_eq!(data["phone"], "+44 20 7946 0000");
    assert_eq!(data["email"], Value::Null);
    assert_eq!(data["socialMediaLinks"][0]["socialMediaType"], "github");

    let pdf = http.get(&format!("{base}/download?format=pdf"), &key).await;
    assert_eq!(pdf.status, 200);
    assert_eq!(pdf.headers["content-type"], "application/pdf");
    let text = String::from_utf8_lossy(&pdf.bytes).into_owned();
    assert!(text.starts_with("%PDF-1.4") && text.trim_end().ends_with("%%EOF"));
    assert!(text.contains("(Ada Lovelace) Tj"));
    assert!(text.contains("(- Company: Engines Ltd) Tj"));
    let html = http
        .get(&format!("{base}/download?format=html"), &key)
        .await;
    let html = String::from_utf8(html.bytes).unwrap();
    assert!(html.contains("<h1>Ada Lovelace</h1>"));
    assert!(html.contains("<li>github: https://github.com/ada-lovelace</li>"));
    let markdown = http
        .get(&format!("{base}/download?format=markdown"), &key)
        .await;
    assert!(
        String::from_utf8(markdown.bytes)
            .unwrap()
            .starts_with("# Ada Lovelace\n")
    );
    let bad = http.get(&format!("{base}/download?format=rtf"), &key).await;
    assert_eq!(bad.status, 400);

    let archived = http.post(&format!("{base}/archive"), &key, json!({})).await;
    assert_eq!(archived.data()["success"], true);
    let profile = http.get(&base, &key).await;
    assert_eq!(profile.data()["status"], "ARCHIVED");
    let project = http
        .get(
            &format!(
                "/api/v1/projects/{}/details",
                created["projectSlug"].as_str().unwrap()
            ),
            &key,
        )
        .await;
    assert_eq!(project.data()["project"]["status"], "ARCHIVED");
}
