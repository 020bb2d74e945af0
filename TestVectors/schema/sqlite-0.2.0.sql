-- A SQLite file of typewire 0.2.0 (schema version 13), made by that release's server and
-- scripts/schema_fill.py (scripts/schema_dump.sh): the demo's users and conversations, messages with an edit and
-- a reply in a thread, reads (shared and private), delivered marks, settings, a block, last seen, and webhook
-- events waiting for a receiver that is down. SchemaUpgradeTests opens a file made from it with every later release.
BEGIN TRANSACTION;
CREATE TABLE blocks (blocker TEXT NOT NULL, blocked TEXT NOT NULL, PRIMARY KEY (blocker, blocked));
INSERT INTO "blocks" VALUES('erin','dave');
CREATE TABLE conversations (id TEXT PRIMARY KEY, kind TEXT NOT NULL, title TEXT, creator TEXT NOT NULL, stop_rule TEXT NOT NULL DEFAULT 'asker');
INSERT INTO "conversations" VALUES('direct-alice-bob','direct',NULL,'alice','asker');
INSERT INTO "conversations" VALUES('group-six','group','Weekend plans','alice','asker');
INSERT INTO "conversations" VALUES('bot-clawd','direct','Clawd','alice','asker');
INSERT INTO "conversations" VALUES('bot-clawd-bob','direct','Clawd','bob','asker');
INSERT INTO "conversations" VALUES('bot-clawd-carol','direct','Clawd','carol','asker');
INSERT INTO "conversations" VALUES('bot-clawd-dave','direct','Clawd','dave','asker');
INSERT INTO "conversations" VALUES('bot-clawd-erin','direct','Clawd','erin','asker');
INSERT INTO "conversations" VALUES('bot-clawd-frank','direct','Clawd','frank','asker');
CREATE TABLE "messages" (seq INTEGER PRIMARY KEY AUTOINCREMENT, conversation TEXT NOT NULL, sender TEXT NOT NULL,
sender_name TEXT, client_message_id TEXT NOT NULL, text TEXT NOT NULL, sent_at INTEGER NOT NULL, edited_at INTEGER, thread TEXT,
UNIQUE (conversation, sender, client_message_id));
INSERT INTO "messages" VALUES(1,'direct-alice-bob','alice','Alice','c-1','Are you coming tonight?',1796678941549,NULL,NULL);
INSERT INTO "messages" VALUES(2,'direct-alice-bob','bob','Bob','c-2','Yes 🎉 — “on my way”
see you soon',1796678941552,1796678941556,NULL);
INSERT INTO "messages" VALUES(3,'group-six','carol','Carol','g-1','Hike on Sunday?',1796678941557,NULL,NULL);
INSERT INTO "messages" VALUES(4,'group-six','alice','Alice','g-2','Count me in',1796678941559,NULL,'3');
INSERT INTO "messages" VALUES(5,'group-six','carol','Carol','g-3','Bring water',1796678941561,NULL,NULL);
CREATE TABLE participants (conversation TEXT NOT NULL REFERENCES conversations(id), user TEXT NOT NULL, PRIMARY KEY (conversation, user));
INSERT INTO "participants" VALUES('direct-alice-bob','alice');
INSERT INTO "participants" VALUES('direct-alice-bob','bob');
INSERT INTO "participants" VALUES('group-six','bob');
INSERT INTO "participants" VALUES('group-six','carol');
INSERT INTO "participants" VALUES('group-six','erin');
INSERT INTO "participants" VALUES('group-six','dave');
INSERT INTO "participants" VALUES('group-six','frank');
INSERT INTO "participants" VALUES('group-six','alice');
INSERT INTO "participants" VALUES('bot-clawd','alice');
INSERT INTO "participants" VALUES('bot-clawd','clawd');
INSERT INTO "participants" VALUES('bot-clawd-bob','clawd');
INSERT INTO "participants" VALUES('bot-clawd-bob','bob');
INSERT INTO "participants" VALUES('bot-clawd-carol','clawd');
INSERT INTO "participants" VALUES('bot-clawd-carol','carol');
INSERT INTO "participants" VALUES('bot-clawd-dave','dave');
INSERT INTO "participants" VALUES('bot-clawd-dave','clawd');
INSERT INTO "participants" VALUES('bot-clawd-erin','erin');
INSERT INTO "participants" VALUES('bot-clawd-erin','clawd');
INSERT INTO "participants" VALUES('bot-clawd-frank','clawd');
INSERT INTO "participants" VALUES('bot-clawd-frank','frank');
CREATE TABLE read_marks (conversation TEXT NOT NULL, thread TEXT NOT NULL, user TEXT NOT NULL, seq INTEGER NOT NULL,
read_at INTEGER NOT NULL, shared_seq INTEGER NOT NULL, shared_at INTEGER NOT NULL, delivered_seq INTEGER NOT NULL DEFAULT 0, delivered_at INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (conversation, thread, user));
INSERT INTO "read_marks" VALUES('direct-alice-bob','','alice',1,1796678941549,1,1796678941549,2,1796678941566);
INSERT INTO "read_marks" VALUES('direct-alice-bob','','bob',2,1796678941552,2,1796678941552,0,0);
INSERT INTO "read_marks" VALUES('group-six','','carol',5,1796678941561,5,1796678941561,0,0);
INSERT INTO "read_marks" VALUES('group-six','3','alice',4,1796678941559,4,1796678941559,0,0);
INSERT INTO "read_marks" VALUES('group-six','','alice',5,1796678941563,5,1796678941563,0,0);
INSERT INTO "read_marks" VALUES('group-six','','bob',3,1796678941564,0,0,5,1796678941567);
INSERT INTO "read_marks" VALUES('group-six','3','carol',4,1796678941564,4,1796678941564,0,0);
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO "schema_version" VALUES(1);
INSERT INTO "schema_version" VALUES(2);
INSERT INTO "schema_version" VALUES(3);
INSERT INTO "schema_version" VALUES(4);
INSERT INTO "schema_version" VALUES(5);
INSERT INTO "schema_version" VALUES(6);
INSERT INTO "schema_version" VALUES(7);
INSERT INTO "schema_version" VALUES(8);
INSERT INTO "schema_version" VALUES(9);
INSERT INTO "schema_version" VALUES(10);
INSERT INTO "schema_version" VALUES(11);
INSERT INTO "schema_version" VALUES(12);
INSERT INTO "schema_version" VALUES(13);
CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT, is_bot INTEGER NOT NULL DEFAULT 0, shares_typing INTEGER NOT NULL DEFAULT 1, bot_set_by_api INTEGER NOT NULL DEFAULT 0, shares_presence INTEGER NOT NULL DEFAULT 1, read_receipts TEXT NOT NULL DEFAULT 'share', last_seen_at INTEGER);
INSERT INTO "users" VALUES('alice','Alice',0,1,0,1,'share',1796678940000);
INSERT INTO "users" VALUES('bob','Bob',0,1,0,1,'share',1796678940000);
INSERT INTO "users" VALUES('carol','Carol',0,1,0,1,'share',1796678940000);
INSERT INTO "users" VALUES('dave','Dave',0,1,0,0,'hide',NULL);
INSERT INTO "users" VALUES('erin','Erin',0,1,0,1,'share',NULL);
INSERT INTO "users" VALUES('frank','Frank',0,0,0,1,'share',NULL);
INSERT INTO "users" VALUES('clawd','Clawd',1,1,0,1,'share',1796678940000);
CREATE TABLE webhook_outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL, type TEXT NOT NULL,
endpoint TEXT NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
due_at INTEGER NOT NULL, size INTEGER NOT NULL DEFAULT 0, coalescing_key TEXT);
INSERT INTO "webhook_outbox" VALUES(1,'evt_f547ca5ec331f588df6ebcd89537be6f','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796678941275,"data":{"online":true,"user":"clawd"},"id":"evt_f547ca5ec331f588df6ebcd89537be6f","type":"presence.changed"}',1796678941275,1,1796678941964,135,NULL);
INSERT INTO "webhook_outbox" VALUES(2,'evt_40f67d2425aec5619c57f085dcd21055','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796678941534,"data":{"online":true,"user":"alice"},"id":"evt_40f67d2425aec5619c57f085dcd21055","type":"presence.changed"}',1796678941534,1,1796678942424,135,NULL);
INSERT INTO "webhook_outbox" VALUES(3,'evt_f1206d437d95fd341c3389c029ca8de4','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796678941536,"data":{"online":true,"user":"bob"},"id":"evt_f1206d437d95fd341c3389c029ca8de4","type":"presence.changed"}',1796678941536,1,1796678942040,133,NULL);
INSERT INTO "webhook_outbox" VALUES(4,'evt_990804305d80d072b4bc06c537cb405e','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796678941539,"data":{"online":true,"user":"carol"},"id":"evt_990804305d80d072b4bc06c537cb405e","type":"presence.changed"}',1796678941539,1,1796678942145,135,NULL);
INSERT INTO "webhook_outbox" VALUES(5,'evt_b2ade6e82c53cc764d4e1eb8342f9698','message.created','http://127.0.0.1:9/hook','{"createdAt":1796678941549,"data":{"message":{"clientMessageId":"c-1","conversation":"direct-alice-bob","id":"1","sender":"alice","senderName":"Alice","sentAt":1796678941549,"text":"Are you coming tonight?"},"offline":[]},"id":"evt_b2ade6e82c53cc764d4e1eb8342f9698","type":"message.created"}',1796678941549,1,1796678942268,291,NULL);
INSERT INTO "webhook_outbox" VALUES(6,'evt_5430f7d3c18a9fd6eff05ae81f5e1811','message.created','http://127.0.0.1:9/hook','{"createdAt":1796678941554,"data":{"message":{"clientMessageId":"c-2","conversation":"direct-alice-bob","id":"2","sender":"bob","senderName":"Bob","sentAt":1796678941552,"text":"Yes 🎉 — “on my way”\nsee you"},"offline":[]},"id":"evt_5430f7d3c18a9fd6eff05ae81f5e1811","type":"message.created"}',1796678941554,1,1796678942714,301,NULL);
INSERT INTO "webhook_outbox" VALUES(7,'evt_99d799ebb1dedd5f1ebfa0c3653f7790','message.edited','http://127.0.0.1:9/hook','{"createdAt":1796678941556,"data":{"message":{"clientMessageId":"c-2","conversation":"direct-alice-bob","editedAt":1796678941556,"id":"2","sender":"bob","senderName":"Bob","sentAt":1796678941552,"text":"Yes 🎉 — “on my way”\nsee you soon"}},"id":"evt_99d799ebb1dedd5f1ebfa0c3653f7790","type":"message.edited"}',1796678941556,1,1796678944970,317,'message.edited direct-alice-bob 2');
INSERT INTO "webhook_outbox" VALUES(8,'evt_f1f56cbb7db7e42deae5dd03d98b4112','message.created','http://127.0.0.1:9/hook','{"createdAt":1796678941558,"data":{"message":{"clientMessageId":"g-1","conversation":"group-six","id":"3","sender":"carol","senderName":"Carol","sentAt":1796678941557,"text":"Hike on Sunday?"},"offline":["dave","erin","frank"]},"id":"evt_f1f56cbb7db7e42deae5dd03d98b4112","type":"message.created"}',1796678941558,0,1796678941558,297,NULL);
INSERT INTO "webhook_outbox" VALUES(9,'evt_25dc4abd6558f5d959df71f39899088c','message.created','http://127.0.0.1:9/hook','{"createdAt":1796678941560,"data":{"message":{"clientMessageId":"g-2","conversation":"group-six","id":"4","sender":"alice","senderName":"Alice","sentAt":1796678941559,"text":"Count me in","thread":"3"},"offline":["dave","erin","frank"]},"id":"evt_25dc4abd6558f5d959df71f39899088c","type":"message.created"}',1796678941560,0,1796678941560,306,NULL);
INSERT INTO "webhook_outbox" VALUES(10,'evt_0d2cf12432464f6e0b29482da0bd8509','message.created','http://127.0.0.1:9/hook','{"createdAt":1796678941562,"data":{"message":{"clientMessageId":"g-3","conversation":"group-six","id":"5","sender":"carol","senderName":"Carol","sentAt":1796678941561,"text":"Bring water"},"offline":["dave","erin","frank"]},"id":"evt_0d2cf12432464f6e0b29482da0bd8509","type":"message.created"}',1796678941562,0,1796678941562,293,NULL);
INSERT INTO "webhook_outbox" VALUES(11,'evt_4b0e839f69f8e9417d12dcd29bd32ffd','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796678943077,"data":{"online":false,"user":"alice"},"id":"evt_4b0e839f69f8e9417d12dcd29bd32ffd","type":"presence.changed"}',1796678943077,0,1796678943077,136,NULL);
INSERT INTO "webhook_outbox" VALUES(12,'evt_a17be400435d306a8289556823621f96','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796678943078,"data":{"online":false,"user":"bob"},"id":"evt_a17be400435d306a8289556823621f96","type":"presence.changed"}',1796678943078,0,1796678943078,134,NULL);
INSERT INTO "webhook_outbox" VALUES(13,'evt_1bb4c0524b8cc5bdde5ece1a7761707c','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796678943078,"data":{"online":false,"user":"carol"},"id":"evt_1bb4c0524b8cc5bdde5ece1a7761707c","type":"presence.changed"}',1796678943078,0,1796678943078,136,NULL);
INSERT INTO "webhook_outbox" VALUES(14,'evt_3d9897cd5def11ceb46ee55bbea7122d','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796678944094,"data":{"online":false,"user":"clawd"},"id":"evt_3d9897cd5def11ceb46ee55bbea7122d","type":"presence.changed"}',1796678944094,0,1796678944094,136,NULL);
CREATE INDEX participants_by_user ON participants (user);
CREATE INDEX messages_by_conversation ON messages (conversation, seq);
CREATE INDEX blocks_by_blocked ON blocks (blocked);
CREATE INDEX webhook_outbox_by_due ON webhook_outbox (due_at);
CREATE INDEX messages_by_thread ON messages (conversation, thread, seq);
CREATE INDEX webhook_outbox_by_key ON webhook_outbox (coalescing_key, endpoint) WHERE coalescing_key IS NOT NULL;
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('messages',5);
INSERT INTO "sqlite_sequence" VALUES('webhook_outbox',14);
COMMIT;
