use super::*;

fn at(second: i64) -> Timestamp {
    Timestamp::from_second(1_750_000_000 + second).unwrap()
}

fn note(key: &str, second: i64) -> NewEvent {
    NewEvent::new(
        at(second),
        Actor("alice@h".into()),
        IdempotencyKey(key.into()),
        EventBody::Note {
            text: format!("note {key}"),
        },
    )
}

fn temp_journal() -> (tempfile::TempDir, std::path::PathBuf, SqliteJournal) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.sqlite");
    let journal = SqliteJournal::open(&path, Durability::Normal).unwrap();
    (dir, path, journal)
}

#[test]
fn appends_are_read_back_whole_and_survive_reopening() {
    let (_dir, path, mut j) = temp_journal();
    let event = note("a", 1)
        .with_run(RunId("r1".into()))
        .with_cluster(ClusterId("c1".into()));
    let appended = j.append(event.clone(), None).unwrap();
    assert!(!appended.duplicate);
    assert_eq!(appended.event.event, event);
    drop(j);
    let j = SqliteJournal::open(&path, Durability::Full).unwrap();
    assert_eq!(j.schema_version().unwrap(), 1);
    let all = j.query(&EventQuery::default()).unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].event, event);
    assert_eq!(j.integrity_check().unwrap(), "ok");
}

#[test]
fn the_journal_refuses_updates_and_deletes() {
    let (_dir, _path, mut j) = temp_journal();
    j.append(note("a", 1), None).unwrap();
    let update = j.conn.execute("UPDATE events SET actor = 'mallory'", []);
    assert!(update.unwrap_err().to_string().contains("append-only"));
    let delete = j.conn.execute("DELETE FROM events", []);
    assert!(delete.unwrap_err().to_string().contains("append-only"));
}

#[test]
fn a_read_only_journal_reads_creates_nothing_and_refuses_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.sqlite");
    let missing = SqliteJournal::open_read_only(&path).err().unwrap();
    assert!(missing.to_string().contains("no journal at"), "{missing}");
    assert!(!path.exists(), "read-only mode created the journal file");

    let mut writer = SqliteJournal::open(&path, Durability::Normal).unwrap();
    writer.append(note("a", 1), None).unwrap();
    let mut reader = SqliteJournal::open_read_only(&path).unwrap();
    assert_eq!(reader.query(&EventQuery::default()).unwrap().len(), 1);
    assert!(reader.append(note("b", 2), None).is_err());
    writer.append(note("c", 3), None).unwrap();
    assert_eq!(reader.query(&EventQuery::default()).unwrap().len(), 2);
}

#[test]
fn a_read_only_journal_of_an_older_schema_asks_for_one_writable_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.sqlite");
    SqliteJournal::open(&path, Durability::Normal).unwrap();
    let conn = Connection::open(&path).unwrap();
    conn.execute("UPDATE schema_version SET version = 0", [])
        .unwrap();
    drop(conn);
    let refused = SqliteJournal::open_read_only(&path).err().unwrap();
    assert!(
        refused.to_string().contains("without --readonly"),
        "{refused}"
    );
}
