-- Typewire 0.2.0's PostgreSQL schema (schema_version 1-13) and rows, for SchemaUpgradeTests: pg_dump --inserts
-- --no-owner --no-privileges of a database made by 0.2.0's server and a client (the rows of sqlite-0.2.0.sql:
-- the demo's users and conversations, messages with an edit and a reply in a thread, reads shared and private,
-- delivered marks, settings, a block, last seen, webhook events waiting for a receiver that is down); pg_dump's
-- session settings left out. Each statement ends with `;` at the end of a line.

CREATE TABLE public.blocks (
    blocker text NOT NULL,
    blocked text NOT NULL
);

CREATE TABLE public.cluster_nodes (
    id text NOT NULL,
    heartbeat_at timestamp with time zone NOT NULL
);

CREATE TABLE public.cluster_presence (
    node text NOT NULL,
    "user" text NOT NULL
);

CREATE TABLE public.conversations (
    id text NOT NULL,
    kind text NOT NULL,
    title text,
    creator text NOT NULL,
    stop_rule text DEFAULT 'asker'::text NOT NULL
);

CREATE TABLE public.messages (
    seq bigint NOT NULL,
    conversation text NOT NULL,
    sender text NOT NULL,
    sender_name text,
    client_message_id text NOT NULL,
    text text NOT NULL,
    sent_at bigint NOT NULL,
    edited_at bigint,
    thread text
);

CREATE SEQUENCE public.messages_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.messages_seq_seq OWNED BY public.messages.seq;

CREATE TABLE public.participants (
    conversation text NOT NULL,
    "user" text NOT NULL
);

CREATE TABLE public.read_marks (
    conversation text NOT NULL,
    thread text NOT NULL,
    "user" text NOT NULL,
    seq bigint NOT NULL,
    read_at bigint NOT NULL,
    shared_seq bigint NOT NULL,
    shared_at bigint NOT NULL,
    delivered_seq bigint DEFAULT 0 NOT NULL,
    delivered_at bigint DEFAULT 0 NOT NULL
);

CREATE TABLE public.schema_version (
    version integer NOT NULL
);

CREATE TABLE public.users (
    id text NOT NULL,
    name text,
    is_bot boolean DEFAULT false NOT NULL,
    shares_typing boolean DEFAULT true NOT NULL,
    bot_set_by_api boolean DEFAULT false NOT NULL,
    shares_presence boolean DEFAULT true NOT NULL,
    read_receipts text DEFAULT 'share'::text NOT NULL,
    last_seen_at bigint
);

CREATE TABLE public.webhook_outbox (
    id bigint NOT NULL,
    event_id text NOT NULL,
    type text NOT NULL,
    endpoint text NOT NULL,
    body text NOT NULL,
    created_at bigint NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    due_at bigint NOT NULL,
    size bigint DEFAULT 0 NOT NULL,
    coalescing_key text
);

CREATE SEQUENCE public.webhook_outbox_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.webhook_outbox_id_seq OWNED BY public.webhook_outbox.id;

ALTER TABLE ONLY public.messages ALTER COLUMN seq SET DEFAULT nextval('public.messages_seq_seq'::regclass);

ALTER TABLE ONLY public.webhook_outbox ALTER COLUMN id SET DEFAULT nextval('public.webhook_outbox_id_seq'::regclass);

INSERT INTO public.blocks VALUES ('erin', 'dave');

INSERT INTO public.conversations VALUES ('direct-alice-bob', 'direct', NULL, 'alice', 'asker');
INSERT INTO public.conversations VALUES ('group-six', 'group', 'Weekend plans', 'alice', 'asker');
INSERT INTO public.conversations VALUES ('bot-clawd', 'direct', 'Clawd', 'alice', 'asker');
INSERT INTO public.conversations VALUES ('bot-clawd-bob', 'direct', 'Clawd', 'bob', 'asker');
INSERT INTO public.conversations VALUES ('bot-clawd-carol', 'direct', 'Clawd', 'carol', 'asker');
INSERT INTO public.conversations VALUES ('bot-clawd-dave', 'direct', 'Clawd', 'dave', 'asker');
INSERT INTO public.conversations VALUES ('bot-clawd-erin', 'direct', 'Clawd', 'erin', 'asker');
INSERT INTO public.conversations VALUES ('bot-clawd-frank', 'direct', 'Clawd', 'frank', 'asker');

INSERT INTO public.messages VALUES (1, 'direct-alice-bob', 'alice', 'Alice', 'c-1', 'Are you coming tonight?', 1796676005402, NULL, NULL);
INSERT INTO public.messages VALUES (2, 'direct-alice-bob', 'bob', 'Bob', 'c-2', 'Yes 🎉 — “on my way”
see you soon', 1796676005408, 1796676005416, NULL);
INSERT INTO public.messages VALUES (3, 'group-six', 'carol', 'Carol', 'g-1', 'Hike on Sunday?', 1796676005419, NULL, NULL);
INSERT INTO public.messages VALUES (4, 'group-six', 'alice', 'Alice', 'g-2', 'Count me in', 1796676005429, NULL, '3');
INSERT INTO public.messages VALUES (5, 'group-six', 'carol', 'Carol', 'g-3', 'Bring water', 1796676005444, NULL, NULL);

INSERT INTO public.participants VALUES ('direct-alice-bob', 'alice');
INSERT INTO public.participants VALUES ('direct-alice-bob', 'bob');
INSERT INTO public.participants VALUES ('group-six', 'alice');
INSERT INTO public.participants VALUES ('group-six', 'erin');
INSERT INTO public.participants VALUES ('group-six', 'bob');
INSERT INTO public.participants VALUES ('group-six', 'frank');
INSERT INTO public.participants VALUES ('group-six', 'carol');
INSERT INTO public.participants VALUES ('group-six', 'dave');
INSERT INTO public.participants VALUES ('bot-clawd', 'clawd');
INSERT INTO public.participants VALUES ('bot-clawd', 'alice');
INSERT INTO public.participants VALUES ('bot-clawd-bob', 'clawd');
INSERT INTO public.participants VALUES ('bot-clawd-bob', 'bob');
INSERT INTO public.participants VALUES ('bot-clawd-carol', 'clawd');
INSERT INTO public.participants VALUES ('bot-clawd-carol', 'carol');
INSERT INTO public.participants VALUES ('bot-clawd-dave', 'clawd');
INSERT INTO public.participants VALUES ('bot-clawd-dave', 'dave');
INSERT INTO public.participants VALUES ('bot-clawd-erin', 'clawd');
INSERT INTO public.participants VALUES ('bot-clawd-erin', 'erin');
INSERT INTO public.participants VALUES ('bot-clawd-frank', 'frank');
INSERT INTO public.participants VALUES ('bot-clawd-frank', 'clawd');

INSERT INTO public.read_marks VALUES ('direct-alice-bob', '', 'bob', 2, 1796676005408, 2, 1796676005408, 0, 0);
INSERT INTO public.read_marks VALUES ('group-six', '3', 'alice', 4, 1796676005429, 4, 1796676005429, 0, 0);
INSERT INTO public.read_marks VALUES ('group-six', '', 'carol', 5, 1796676005444, 5, 1796676005444, 0, 0);
INSERT INTO public.read_marks VALUES ('group-six', '', 'alice', 5, 1796676005452, 5, 1796676005452, 0, 0);
INSERT INTO public.read_marks VALUES ('group-six', '3', 'carol', 4, 1796676005451, 4, 1796676005451, 0, 0);
INSERT INTO public.read_marks VALUES ('direct-alice-bob', '', 'alice', 1, 1796676005402, 1, 1796676005402, 2, 1796676005464);
INSERT INTO public.read_marks VALUES ('group-six', '', 'bob', 3, 1796676005453, 0, 0, 5, 1796676005472);

INSERT INTO public.schema_version VALUES (1);
INSERT INTO public.schema_version VALUES (2);
INSERT INTO public.schema_version VALUES (3);
INSERT INTO public.schema_version VALUES (4);
INSERT INTO public.schema_version VALUES (5);
INSERT INTO public.schema_version VALUES (6);
INSERT INTO public.schema_version VALUES (7);
INSERT INTO public.schema_version VALUES (8);
INSERT INTO public.schema_version VALUES (9);
INSERT INTO public.schema_version VALUES (10);
INSERT INTO public.schema_version VALUES (11);
INSERT INTO public.schema_version VALUES (12);
INSERT INTO public.schema_version VALUES (13);

INSERT INTO public.users VALUES ('clawd', 'Clawd', true, true, false, true, 'share', NULL);
INSERT INTO public.users VALUES ('frank', 'Frank', false, false, false, true, 'share', NULL);
INSERT INTO public.users VALUES ('dave', 'Dave', false, true, false, false, 'hide', NULL);
INSERT INTO public.users VALUES ('erin', 'Erin', false, true, false, true, 'share', NULL);
INSERT INTO public.users VALUES ('alice', 'Alice', false, true, false, true, 'share', 1796676000000);
INSERT INTO public.users VALUES ('bob', 'Bob', false, true, false, true, 'share', 1796676000000);
INSERT INTO public.users VALUES ('carol', 'Carol', false, true, false, true, 'share', 1796676000000);

INSERT INTO public.webhook_outbox VALUES (1, 'evt_f9281c6c70fe3c35b34bccefcf75d276', 'presence.changed', 'http://127.0.0.1:9/hook', '{"createdAt":1796676005342,"data":{"online":true,"user":"alice"},"id":"evt_f9281c6c70fe3c35b34bccefcf75d276","type":"presence.changed"}', 1796676005342, 1, 1796676005951, 135, NULL);
INSERT INTO public.webhook_outbox VALUES (2, 'evt_9271c0dc5eb0fa15cbdd0f7b615dacfe', 'presence.changed', 'http://127.0.0.1:9/hook', '{"createdAt":1796676005353,"data":{"online":true,"user":"bob"},"id":"evt_9271c0dc5eb0fa15cbdd0f7b615dacfe","type":"presence.changed"}', 1796676005353, 1, 1796676006207, 133, NULL);
INSERT INTO public.webhook_outbox VALUES (3, 'evt_87d9544ca0d6b8a30f43b3fb38574a01', 'presence.changed', 'http://127.0.0.1:9/hook', '{"createdAt":1796676005366,"data":{"online":true,"user":"carol"},"id":"evt_87d9544ca0d6b8a30f43b3fb38574a01","type":"presence.changed"}', 1796676005366, 1, 1796676005883, 135, NULL);
INSERT INTO public.webhook_outbox VALUES (4, 'evt_5aefb4c44181eb847d906ac217839e74', 'message.created', 'http://127.0.0.1:9/hook', '{"createdAt":1796676005404,"data":{"message":{"clientMessageId":"c-1","conversation":"direct-alice-bob","id":"1","sender":"alice","senderName":"Alice","sentAt":1796676005402,"text":"Are you coming tonight?"},"offline":[]},"id":"evt_5aefb4c44181eb847d906ac217839e74","type":"message.created"}', 1796676005404, 1, 1796676006160, 291, NULL);
INSERT INTO public.webhook_outbox VALUES (5, 'evt_cdfd59814069df1388424424de795ede', 'message.created', 'http://127.0.0.1:9/hook', '{"createdAt":1796676005410,"data":{"message":{"clientMessageId":"c-2","conversation":"direct-alice-bob","id":"2","sender":"bob","senderName":"Bob","sentAt":1796676005408,"text":"Yes 🎉 — “on my way”\nsee you"},"offline":[]},"id":"evt_cdfd59814069df1388424424de795ede","type":"message.created"}', 1796676005410, 1, 1796676006154, 301, NULL);
INSERT INTO public.webhook_outbox VALUES (6, 'evt_7d300309f3df592a8cab8a9e50075f91', 'message.created', 'http://127.0.0.1:9/hook', '{"createdAt":1796676005422,"data":{"message":{"clientMessageId":"g-1","conversation":"group-six","id":"3","sender":"carol","senderName":"Carol","sentAt":1796676005419,"text":"Hike on Sunday?"},"offline":["dave","erin","frank"]},"id":"evt_7d300309f3df592a8cab8a9e50075f91","type":"message.created"}', 1796676005422, 0, 1796676005422, 297, NULL);
INSERT INTO public.webhook_outbox VALUES (8, 'evt_05bcf8868d4f913b5595028e7f586c20', 'message.created', 'http://127.0.0.1:9/hook', '{"createdAt":1796676005436,"data":{"message":{"clientMessageId":"g-2","conversation":"group-six","id":"4","sender":"alice","senderName":"Alice","sentAt":1796676005429,"text":"Count me in","thread":"3"},"offline":["dave","erin","frank"]},"id":"evt_05bcf8868d4f913b5595028e7f586c20","type":"message.created"}', 1796676005436, 0, 1796676005436, 306, NULL);
INSERT INTO public.webhook_outbox VALUES (9, 'evt_e19d3bde45aa90097d9735ceb9a69d17', 'message.created', 'http://127.0.0.1:9/hook', '{"createdAt":1796676005447,"data":{"message":{"clientMessageId":"g-3","conversation":"group-six","id":"5","sender":"carol","senderName":"Carol","sentAt":1796676005444,"text":"Bring water"},"offline":["dave","erin","frank"]},"id":"evt_e19d3bde45aa90097d9735ceb9a69d17","type":"message.created"}', 1796676005447, 0, 1796676005447, 293, NULL);
INSERT INTO public.webhook_outbox VALUES (7, 'evt_19aeb18ebd6b0a3a04c604b69d082031', 'message.edited', 'http://127.0.0.1:9/hook', '{"createdAt":1796676005418,"data":{"message":{"clientMessageId":"c-2","conversation":"direct-alice-bob","editedAt":1796676005416,"id":"2","sender":"bob","senderName":"Bob","sentAt":1796676005408,"text":"Yes 🎉 — “on my way”\nsee you soon"}},"id":"evt_19aeb18ebd6b0a3a04c604b69d082031","type":"message.edited"}', 1796676005418, 1, 1796676007189, 317, 'message.edited direct-alice-bob 2');
INSERT INTO public.webhook_outbox VALUES (10, 'evt_d17f8a4c2708cd92a62916125cc74fc8', 'presence.changed', 'http://127.0.0.1:9/hook', '{"createdAt":1796676006979,"data":{"online":false,"user":"alice"},"id":"evt_d17f8a4c2708cd92a62916125cc74fc8","type":"presence.changed"}', 1796676006979, 0, 1796676006979, 136, NULL);
INSERT INTO public.webhook_outbox VALUES (11, 'evt_f7a18a08115691dd6aff3e6bebd36ee2', 'presence.changed', 'http://127.0.0.1:9/hook', '{"createdAt":1796676006980,"data":{"online":false,"user":"bob"},"id":"evt_f7a18a08115691dd6aff3e6bebd36ee2","type":"presence.changed"}', 1796676006980, 0, 1796676006980, 134, NULL);
INSERT INTO public.webhook_outbox VALUES (12, 'evt_de81f07b96ad7777d4e0f8c5a1500096', 'presence.changed', 'http://127.0.0.1:9/hook', '{"createdAt":1796676006982,"data":{"online":false,"user":"carol"},"id":"evt_de81f07b96ad7777d4e0f8c5a1500096","type":"presence.changed"}', 1796676006982, 0, 1796676006982, 136, NULL);

SELECT pg_catalog.setval('public.messages_seq_seq', 5, true);

SELECT pg_catalog.setval('public.webhook_outbox_id_seq', 12, true);

ALTER TABLE ONLY public.blocks
    ADD CONSTRAINT blocks_pkey PRIMARY KEY (blocker, blocked);

ALTER TABLE ONLY public.cluster_nodes
    ADD CONSTRAINT cluster_nodes_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.cluster_presence
    ADD CONSTRAINT cluster_presence_pkey PRIMARY KEY (node, "user");

ALTER TABLE ONLY public.conversations
    ADD CONSTRAINT conversations_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.messages
    ADD CONSTRAINT messages_conversation_sender_client_message_id_key UNIQUE (conversation, sender, client_message_id);

ALTER TABLE ONLY public.messages
    ADD CONSTRAINT messages_pkey PRIMARY KEY (seq);

ALTER TABLE ONLY public.participants
    ADD CONSTRAINT participants_pkey PRIMARY KEY (conversation, "user");

ALTER TABLE ONLY public.read_marks
    ADD CONSTRAINT read_marks_pkey PRIMARY KEY (conversation, thread, "user");

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.webhook_outbox
    ADD CONSTRAINT webhook_outbox_pkey PRIMARY KEY (id);

CREATE INDEX blocks_by_blocked ON public.blocks USING btree (blocked);

CREATE INDEX messages_by_conversation ON public.messages USING btree (conversation, seq);

CREATE INDEX messages_by_thread ON public.messages USING btree (conversation, thread, seq);

CREATE INDEX participants_by_user ON public.participants USING btree ("user");

CREATE INDEX webhook_outbox_by_due ON public.webhook_outbox USING btree (due_at);

CREATE INDEX webhook_outbox_by_key ON public.webhook_outbox USING btree (coalescing_key, endpoint) WHERE (coalescing_key IS NOT NULL);

ALTER TABLE ONLY public.participants
    ADD CONSTRAINT participants_conversation_fkey FOREIGN KEY (conversation) REFERENCES public.conversations(id);

