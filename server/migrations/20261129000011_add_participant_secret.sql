-- Participant secrets (expand step: nullable). The browser gets a 128-bit random secret with
-- its participant id at the first session start and must present it to start further sessions
-- under that id; only a SHA-256 hash is stored. Participants created before this version have
-- no hash: a start naming them gets a fresh participant instead (nobody can prove ownership).
ALTER TABLE participants ADD COLUMN secret_hash TEXT;
