-- The items of a meme: every session start and session read asks, per item of its batch,
-- whether the meme's meaning belongs to an open explanation item (`meaning_split` in
-- `Storage::session_items`). Without this index that question scanned every item of every
-- task, 24 times per read: most of a session start's database time, growing with the
-- benchmark's size (see benches/answers.rs).
CREATE INDEX items_meme ON items (meme_id);
