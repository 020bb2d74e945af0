-- A SQLite file of typewire 0.2.0 (schema version 13), made by 0.2.0's server and a client: the demo's users
-- and conversations, messages with an edit and a reply in a thread, reads (shared and private), delivered marks,
-- settings (typing, presence, read receipts), a block, last seen, and webhook events waiting for a receiver
-- that is down. The migration test opens a file made from it with every later release.
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
INSERT INTO "messages" VALUES(1,'direct-alice-bob','alice','Alice','c-1','Are you coming tonight?',1796675980512,NULL,NULL);
INSERT INTO "messages" VALUES(2,'direct-alice-bob','bob','Bob','c-2','Yes 🎉 — “on my way”
see you soon',1796675980515,1796675980518,NULL);
INSERT INTO "messages" VALUES(3,'group-six','carol','Carol','g-1','Hike on Sunday?',1796675980519,NULL,NULL);
INSERT INTO "messages" VALUES(4,'group-six','alice','Alice','g-2','Count me in',1796675980523,NULL,'3');
INSERT INTO "messages" VALUES(5,'group-six','carol','Carol','g-3','Bring water',1796675980526,NULL,NULL);
CREATE TABLE participants (conversation TEXT NOT NULL REFERENCES conversations(id), user TEXT NOT NULL, PRIMARY KEY (conversation, user));
INSERT INTO "participants" VALUES('direct-alice-bob','bob');
INSERT INTO "participants" VALUES('direct-alice-bob','alice');
INSERT INTO "participants" VALUES('group-six','alice');
INSERT INTO "participants" VALUES('group-six','carol');
INSERT INTO "participants" VALUES('group-six','erin');
INSERT INTO "participants" VALUES('group-six','frank');
INSERT INTO "participants" VALUES('group-six','dave');
INSERT INTO "participants" VALUES('group-six','bob');
INSERT INTO "participants" VALUES('bot-clawd','clawd');
INSERT INTO "participants" VALUES('bot-clawd','alice');
INSERT INTO "participants" VALUES('bot-clawd-bob','clawd');
INSERT INTO "participants" VALUES('bot-clawd-bob','bob');
INSERT INTO "participants" VALUES('bot-clawd-carol','carol');
INSERT INTO "participants" VALUES('bot-clawd-carol','clawd');
INSERT INTO "participants" VALUES('bot-clawd-dave','clawd');
INSERT INTO "participants" VALUES('bot-clawd-dave','dave');
INSERT INTO "participants" VALUES('bot-clawd-erin','erin');
INSERT INTO "participants" VALUES('bot-clawd-erin','clawd');
INSERT INTO "participants" VALUES('bot-clawd-frank','clawd');
INSERT INTO "participants" VALUES('bot-clawd-frank','frank');
CREATE TABLE read_marks (conversation TEXT NOT NULL, thread TEXT NOT NULL, user TEXT NOT NULL, seq INTEGER NOT NULL,
read_at INTEGER NOT NULL, shared_seq INTEGER NOT NULL, shared_at INTEGER NOT NULL, delivered_seq INTEGER NOT NULL DEFAULT 0, delivered_at INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (conversation, thread, user));
INSERT INTO "read_marks" VALUES('direct-alice-bob','','alice',1,1796675980512,1,1796675980512,2,1796675980533);
INSERT INTO "read_marks" VALUES('direct-alice-bob','','bob',2,1796675980515,2,1796675980515,0,0);
INSERT INTO "read_marks" VALUES('group-six','','carol',5,1796675980526,5,1796675980526,0,0);
INSERT INTO "read_marks" VALUES('group-six','3','alice',4,1796675980523,4,1796675980523,0,0);
INSERT INTO "read_marks" VALUES('group-six','','alice',5,1796675980529,5,1796675980529,0,0);
INSERT INTO "read_marks" VALUES('group-six','','bob',3,1796675980531,0,0,5,1796675980534);
INSERT INTO "read_marks" VALUES('group-six','3','carol',4,1796675980531,4,1796675980531,0,0);
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
INSERT INTO "users" VALUES('alice','Alice',0,1,0,1,'share',1796675940000);
INSERT INTO "users" VALUES('bob','Bob',0,1,0,1,'share',1796675940000);
INSERT INTO "users" VALUES('carol','Carol',0,1,0,1,'share',1796675940000);
INSERT INTO "users" VALUES('dave','Dave',0,1,0,0,'hide',NULL);
INSERT INTO "users" VALUES('erin','Erin',0,1,0,1,'share',NULL);
INSERT INTO "users" VALUES('frank','Frank',0,0,0,1,'share',NULL);
INSERT INTO "users" VALUES('clawd','Clawd',1,1,0,1,'share',1796675940000);
CREATE TABLE webhook_outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL, type TEXT NOT NULL,
endpoint TEXT NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
due_at INTEGER NOT NULL, size INTEGER NOT NULL DEFAULT 0, coalescing_key TEXT);
INSERT INTO "webhook_outbox" VALUES(1,'evt_9c6e6f7b13bc97a18b105b5c8a6df6e8','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796675977100,"data":{"online":true,"user":"clawd"},"id":"evt_9c6e6f7b13bc97a18b105b5c8a6df6e8","type":"presence.changed"}',1796675977100,3,1796675982143,135,NULL);
INSERT INTO "webhook_outbox" VALUES(2,'evt_e2fcc058d0d49e8b6cafd28129e20bef','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796675980491,"data":{"online":true,"user":"alice"},"id":"evt_e2fcc058d0d49e8b6cafd28129e20bef","type":"presence.changed"}',1796675980491,1,1796675981412,135,NULL);
INSERT INTO "webhook_outbox" VALUES(3,'evt_46a32e209011ca1796d8029939b0626c','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796675980497,"data":{"online":true,"user":"bob"},"id":"evt_46a32e209011ca1796d8029939b0626c","type":"presence.changed"}',1796675980497,1,1796675981146,133,NULL);
INSERT INTO "webhook_outbox" VALUES(4,'evt_00a94baf0d8b0555f36a569d67cebe2c','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796675980501,"data":{"online":true,"user":"carol"},"id":"evt_00a94baf0d8b0555f36a569d67cebe2c","type":"presence.changed"}',1796675980501,1,1796675982046,135,NULL);
INSERT INTO "webhook_outbox" VALUES(5,'evt_92cd551f861f41346b7d71b84876bb21','message.created','http://127.0.0.1:9/hook','{"createdAt":1796675980513,"data":{"message":{"clientMessageId":"c-1","conversation":"direct-alice-bob","id":"1","sender":"alice","senderName":"Alice","sentAt":1796675980512,"text":"Are you coming tonight?"},"offline":[]},"id":"evt_92cd551f861f41346b7d71b84876bb21","type":"message.created"}',1796675980513,1,1796675982886,291,NULL);
INSERT INTO "webhook_outbox" VALUES(6,'evt_e33a849658339dcbf099887f0a8e0ba2','message.created','http://127.0.0.1:9/hook','{"createdAt":1796675980516,"data":{"message":{"clientMessageId":"c-2","conversation":"direct-alice-bob","id":"2","sender":"bob","senderName":"Bob","sentAt":1796675980515,"text":"Yes 🎉 — “on my way”\nsee you"},"offline":[]},"id":"evt_e33a849658339dcbf099887f0a8e0ba2","type":"message.created"}',1796675980516,0,1796675980516,301,NULL);
INSERT INTO "webhook_outbox" VALUES(7,'evt_de4f5ea121d1e92ad08f5a3cfe20c6c7','message.edited','http://127.0.0.1:9/hook','{"createdAt":1796675980519,"data":{"message":{"clientMessageId":"c-2","conversation":"direct-alice-bob","editedAt":1796675980518,"id":"2","sender":"bob","senderName":"Bob","sentAt":1796675980515,"text":"Yes 🎉 — “on my way”\nsee you soon"}},"id":"evt_de4f5ea121d1e92ad08f5a3cfe20c6c7","type":"message.edited"}',1796675980519,0,1796675980519,317,'message.edited direct-alice-bob 2');
INSERT INTO "webhook_outbox" VALUES(8,'evt_58a96f79cd090b93052fc475f2720ce0','message.created','http://127.0.0.1:9/hook','{"createdAt":1796675980521,"data":{"message":{"clientMessageId":"g-1","conversation":"group-six","id":"3","sender":"carol","senderName":"Carol","sentAt":1796675980519,"text":"Hike on Sunday?"},"offline":["dave","erin","frank"]},"id":"evt_58a96f79cd090b93052fc475f2720ce0","type":"message.created"}',1796675980521,0,1796675980521,297,NULL);
INSERT INTO "webhook_outbox" VALUES(9,'evt_cff709daf275b369b41bf241a76ede2c','message.created','http://127.0.0.1:9/hook','{"createdAt":1796675980524,"data":{"message":{"clientMessageId":"g-2","conversation":"group-six","id":"4","sender":"alice","senderName":"Alice","sentAt":1796675980523,"text":"Count me in","thread":"3"},"offline":["dave","erin","frank"]},"id":"evt_cff709daf275b369b41bf241a76ede2c","type":"message.created"}',1796675980524,0,1796675980524,306,NULL);
INSERT INTO "webhook_outbox" VALUES(10,'evt_bbfb7634064930cf98a017ca35b2864f','message.created','http://127.0.0.1:9/hook','{"createdAt":1796675980526,"data":{"message":{"clientMessageId":"g-3","conversation":"group-six","id":"5","sender":"carol","senderName":"Carol","sentAt":1796675980526,"text":"Bring water"},"offline":["dave","erin","frank"]},"id":"evt_bbfb7634064930cf98a017ca35b2864f","type":"message.created"}',1796675980526,0,1796675980526,293,NULL);
INSERT INTO "webhook_outbox" VALUES(11,'evt_b943b4e052b5f7be88eca842eeb6b8ba','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796675982050,"data":{"online":false,"user":"alice"},"id":"evt_b943b4e052b5f7be88eca842eeb6b8ba","type":"presence.changed"}',1796675982050,0,1796675982050,136,NULL);
INSERT INTO "webhook_outbox" VALUES(12,'evt_b56d123669a6b324857a4ee97ba1c26b','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796675982050,"data":{"online":false,"user":"bob"},"id":"evt_b56d123669a6b324857a4ee97ba1c26b","type":"presence.changed"}',1796675982050,0,1796675982050,134,NULL);
INSERT INTO "webhook_outbox" VALUES(13,'evt_bae861ffe48c3da24d68784a84976055','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796675982051,"data":{"online":false,"user":"carol"},"id":"evt_bae861ffe48c3da24d68784a84976055","type":"presence.changed"}',1796675982051,0,1796675982051,136,NULL);
INSERT INTO "webhook_outbox" VALUES(14,'evt_22cc21dd89a1df484c9e2c507ab5bbe6','presence.changed','http://127.0.0.1:9/hook','{"createdAt":1796675983087,"data":{"online":false,"user":"clawd"},"id":"evt_22cc21dd89a1df484c9e2c507ab5bbe6","type":"presence.changed"}',1796675983087,0,1796675983087,136,NULL);
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
