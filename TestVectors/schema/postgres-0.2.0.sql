-- Typewire 0.2.0's PostgreSQL schema and rows, for SchemaUpgradeTests: pg_dump --inserts --no-owner
-- --no-privileges of a database made by that release's server and scripts/schema_fill.py (scripts/schema_dump.sh),
-- pg_dump's session settings left out. Each statement ends with `;` at the end of a line.
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

INSERT INTO public.messages VALUES (1, 'direct-alice-bob', 'alice', 'Alice', 'c-1', 'Are you coming tonight?', 1796678944954, NULL, NULL);
INSERT INTO public.messages VALUES (2, 'direct-alice-bob', 'bob', 'Bob', 'c-2', 'Yes 🎉 — “on my way”
see you soon', 1796678944959, 1796678944965, NULL);
INSERT INTO public.messages VALUES (3, 'group-six', 'carol', 'Carol', 'g-1', 'Hike on Sunday?', 1796678944967, NULL, NULL);
INSERT INTO public.messages VALUES (4, 'group-six', 'alice', 'Alice', 'g-2', 'Count me in', 1796678944974, NULL, '3');
INSERT INTO public.messages VALUES (5, 'group-six', 'carol', 'Carol', 'g-3', 'Bring water', 1796678944979, NULL, NULL);

INSERT INTO public.participants VALUES ('direct-alice-bob', 'bob');
INSERT INTO public.participants VALUES ('direct-alice-bob', 'alice');
INSERT INTO public.participants VALUES ('group-six', 'bob');
INSERT INTO public.participants VALUES ('group-six', 'erin');
INSERT INTO public.participants VALUES ('group-six', 'dave');
INSERT INTO public.participants VALUES ('group-six', 'frank');
INSERT INTO public.participants VALUES ('group-six', 'carol');
INSERT INTO public.participants VALUES ('group-six', 'alice');
INSERT INTO public.participants VALUES ('bot-clawd', 'clawd');
INSERT INTO public.participants VALUES ('bot-clawd', 'alice');
INSERT INTO public.participants VALUES ('bot-clawd-bob', 'clawd');
INSERT INTO public.participants VALUES ('bot-clawd-bob', 'bob');
INSERT INTO public.participants VALUES ('bot-clawd-carol', 'clawd');
INSERT INTO public.participants VALUES ('bot-clawd-carol', 'carol');
INSERT INTO public.participants VALUES ('bot-clawd-dave', 'clawd');
INSERT INTO public.participants VALUES ('bot-clawd-dave', 'dave');
INSERT INTO public.participants VALUES ('bot-clawd-erin', 'erin');
INSERT INTO public.participants VALUES ('bot-clawd-erin', 'clawd');
INSERT INTO public.participants VALUES ('bot-clawd-frank', 'clawd');
INSERT INTO public.participants VALUES ('bot-clawd-frank', 'frank');

INSERT INTO public.read_marks VALUES ('direct-alice-bob', '', 'bob', 2, 1796678944959, 2, 1796678944959, 0, 0);
INSERT INTO public.read_marks VALUES ('group-six', '3', 'alice', 4, 1796678944974, 4, 1796678944974, 0, 0);
INSERT INTO public.read_marks VALUES ('group-six', '', 'carol', 5, 1796678944979, 5, 1796678944979, 0, 0);
INSERT INTO public.read_marks VALUES ('group-six', '', 'alice', 5, 1796678944986, 5, 1796678944986, 0, 0);
INSERT INTO public.read_marks VALUES ('group-six', '3', 'carol', 4, 1796678944986, 4, 1796678944986, 0, 0);
INSERT INTO public.read_marks VALUES ('direct-alice-bob', '', 'alice', 1, 1796678944954, 1, 1796678944954, 2, 1796678944996);
INSERT INTO public.read_marks VALUES ('group-six', '', 'bob', 3, 1796678944986, 0, 0, 5, 1796678944996);

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
INSERT INTO public.users VALUES ('alice', 'Alice', false, true, false, true, 'share', 1796678940000);
INSERT INTO public.users VALUES ('bob', 'Bob', false, true, false, true, 'share', 1796678940000);
INSERT INTO public.users VALUES ('carol', 'Carol', false, true, false, true, 'share', 1796678940000);

INSERT INTO public.webhook_outbox VALUES (1, 'evt_acb5063e7d2d2bbd1302a7ff709ff449', 'presence.changed', 'http://127.0.0.1:9/hook', '{"createdAt":1796678944904,"data":{"online":true,"user":"alice"},"id":"evt_acb5063e7d2d2bbd1302a7ff709ff449","type":"presence.changed"}', 1796678944904, 1, 1796678945498, 135, NULL);
INSERT INTO public.webhook_outbox VALUES (2, 'evt_a6937278437fac740a7bbc828ee2a3f7', 'presence.changed', 'http://127.0.0.1:9/hook', '{"createdAt":1796678944913,"data":{"online":true,"user":"bob"},"id":"evt_a6937278437fac740a7bbc828ee2a3f7","type":"presence.changed"}', 1796678944913, 1, 1796678945481, 133, NULL);
INSERT INTO public.webhook_outbox VALUES (3, 'evt_81ef07b38ad4e73a94e3c3f659d48d80', 'presence.changed', 'http://127.0.0.1:9/hook', '{"createdAt":1796678944922,"data":{"online":true,"user":"carol"},"id":"evt_81ef07b38ad4e73a94e3c3f659d48d80","type":"presence.changed"}', 1796678944922, 1, 1796678945539, 135, NULL);
INSERT INTO public.webhook_outbox VALUES (4, 'evt_de132baea87b86ffad49fccf2f6bb625', 'message.created', 'http://127.0.0.1:9/hook', '{"createdAt":1796678944956,"data":{"message":{"clientMessageId":"c-1","conversation":"direct-alice-bob","id":"1","sender":"alice","senderName":"Alice","sentAt":1796678944954,"text":"Are you coming tonight?"},"offline":[]},"id":"evt_de132baea87b86ffad49fccf2f6bb625","type":"message.created"}', 1796678944956, 1, 1796678945854, 291, NULL);
INSERT INTO public.webhook_outbox VALUES (5, 'evt_6743df0c0928ad08d1977c5f4a2f59f2', 'message.created', 'http://127.0.0.1:9/hook', '{"createdAt":1796678944962,"data":{"message":{"clientMessageId":"c-2","conversation":"direct-alice-bob","id":"2","sender":"bob","senderName":"Bob","sentAt":1796678944959,"text":"Yes 🎉 — “on my way”\nsee you"},"offline":[]},"id":"evt_6743df0c0928ad08d1977c5f4a2f59f2","type":"message.created"}', 1796678944962, 1, 1796678945586, 301, NULL);
INSERT INTO public.webhook_outbox VALUES (6, 'evt_dc5004103fa79cf49be4608228a3281a', 'message.created', 'http://127.0.0.1:9/hook', '{"createdAt":1796678944970,"data":{"message":{"clientMessageId":"g-1","conversation":"group-six","id":"3","sender":"carol","senderName":"Carol","sentAt":1796678944967,"text":"Hike on Sunday?"},"offline":["dave","erin","frank"]},"id":"evt_dc5004103fa79cf49be4608228a3281a","type":"message.created"}', 1796678944970, 0, 1796678944970, 297, NULL);
INSERT INTO public.webhook_outbox VALUES (8, 'evt_2acae73a9f87f582639cc53925d89e37', 'message.created', 'http://127.0.0.1:9/hook', '{"createdAt":1796678944976,"data":{"message":{"clientMessageId":"g-2","conversation":"group-six","id":"4","sender":"alice","senderName":"Alice","sentAt":1796678944974,"text":"Count me in","thread":"3"},"offline":["dave","erin","frank"]},"id":"evt_2acae73a9f87f582639cc53925d89e37","type":"message.created"}', 1796678944976, 0, 1796678944976, 306, NULL);
INSERT INTO public.webhook_outbox VALUES (9, 'evt_3eff438356d962582f3e0979acb55950', 'message.created', 'http://127.0.0.1:9/hook', '{"createdAt":1796678944982,"data":{"message":{"clientMessageId":"g-3","conversation":"group-six","id":"5","sender":"carol","senderName":"Carol","sentAt":1796678944979,"text":"Bring water"},"offline":["dave","erin","frank"]},"id":"evt_3eff438356d962582f3e0979acb55950","type":"message.created"}', 1796678944982, 0, 1796678944982, 293, NULL);
INSERT INTO public.webhook_outbox VALUES (7, 'evt_0866cc6cf1624396d90fdfc7558f2358', 'message.edited', 'http://127.0.0.1:9/hook', '{"createdAt":1796678944966,"data":{"message":{"clientMessageId":"c-2","conversation":"direct-alice-bob","editedAt":1796678944965,"id":"2","sender":"bob","senderName":"Bob","sentAt":1796678944959,"text":"Yes 🎉 — “on my way”\nsee you soon"}},"id":"evt_0866cc6cf1624396d90fdfc7558f2358","type":"message.edited"}', 1796678944966, 1, 1796678946712, 317, 'message.edited direct-alice-bob 2');
INSERT INTO public.webhook_outbox VALUES (10, 'evt_bb2c80faeb4d87f63b053d25c31653d4', 'presence.changed', 'http://127.0.0.1:9/hook', '{"createdAt":1796678946511,"data":{"online":false,"user":"alice"},"id":"evt_bb2c80faeb4d87f63b053d25c31653d4","type":"presence.changed"}', 1796678946511, 0, 1796678946511, 136, NULL);
INSERT INTO public.webhook_outbox VALUES (11, 'evt_6de9a7ec54d495ad378c361590b4f2bd', 'presence.changed', 'http://127.0.0.1:9/hook', '{"createdAt":1796678946512,"data":{"online":false,"user":"bob"},"id":"evt_6de9a7ec54d495ad378c361590b4f2bd","type":"presence.changed"}', 1796678946512, 0, 1796678946512, 134, NULL);
INSERT INTO public.webhook_outbox VALUES (12, 'evt_33c17fbe8697fd356f5e46abc0464e81', 'presence.changed', 'http://127.0.0.1:9/hook', '{"createdAt":1796678946514,"data":{"online":false,"user":"carol"},"id":"evt_33c17fbe8697fd356f5e46abc0464e81","type":"presence.changed"}', 1796678946514, 0, 1796678946514, 136, NULL);

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
