-- Typewire 0.1.0's PostgreSQL schema (schema_version 1-9) and rows, for SchemaUpgradeTests: pg_dump --inserts
-- --no-owner --no-privileges of a database made by 0.1.0's migrations, holding the rows of sqlite-0.1.0.sql
-- (the demo's users and conversations, messages with an edit and a reply in a thread, a setting, a block);
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
    creator text NOT NULL
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

CREATE TABLE public.schema_version (
    version integer NOT NULL
);

CREATE TABLE public.users (
    id text NOT NULL,
    name text,
    is_bot boolean DEFAULT false NOT NULL,
    shares_typing boolean DEFAULT true NOT NULL,
    bot_set_by_api boolean DEFAULT false NOT NULL,
    shares_presence boolean DEFAULT true NOT NULL
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

INSERT INTO public.conversations VALUES ('direct-alice-bob', 'direct', NULL, 'alice');
INSERT INTO public.conversations VALUES ('group-six', 'group', 'Weekend plans', 'alice');
INSERT INTO public.conversations VALUES ('bot-clawd', 'direct', 'Clawd', 'alice');
INSERT INTO public.conversations VALUES ('bot-clawd-bob', 'direct', 'Clawd', 'bob');
INSERT INTO public.conversations VALUES ('bot-clawd-carol', 'direct', 'Clawd', 'carol');
INSERT INTO public.conversations VALUES ('bot-clawd-dave', 'direct', 'Clawd', 'dave');
INSERT INTO public.conversations VALUES ('bot-clawd-erin', 'direct', 'Clawd', 'erin');
INSERT INTO public.conversations VALUES ('bot-clawd-frank', 'direct', 'Clawd', 'frank');
INSERT INTO public.conversations VALUES ('deleted-0', 'group', NULL, '');
INSERT INTO public.conversations VALUES ('deleted-1', 'group', NULL, '');
INSERT INTO public.conversations VALUES ('deleted-2', 'group', NULL, '');
INSERT INTO public.conversations VALUES ('deleted-3', 'group', NULL, '');
INSERT INTO public.conversations VALUES ('deleted-4', 'group', NULL, '');
INSERT INTO public.conversations VALUES ('deleted-5', 'group', NULL, '');
INSERT INTO public.conversations VALUES ('deleted-6', 'group', NULL, '');
INSERT INTO public.conversations VALUES ('deleted-7', 'group', NULL, '');

INSERT INTO public.messages VALUES (16, 'direct-alice-bob', 'alice', 'Alice', 'c-1', 'Are you coming tonight?', 1764770400000, NULL, NULL);
INSERT INTO public.messages VALUES (17, 'direct-alice-bob', 'bob', 'Bob', 'c-2', 'Yes 🎉 — “on my way”
see you', 1764770460000, 1764770470000, NULL);
INSERT INTO public.messages VALUES (18, 'group-six', 'carol', 'Carol', 'c-3', 'Hike on Sunday?', 1764770500000, NULL, NULL);
INSERT INTO public.messages VALUES (19, 'group-six', 'alice', 'Alice', 'c-4', 'Count me in', 1764770520000, NULL, '18');
INSERT INTO public.messages VALUES (20, 'bot-clawd', 'clawd', 'Clawd', 'stream-r1', 'Typing indicators matter.', 1764770600000, NULL, NULL);

INSERT INTO public.participants VALUES ('direct-alice-bob', 'bob');
INSERT INTO public.participants VALUES ('direct-alice-bob', 'alice');
INSERT INTO public.participants VALUES ('group-six', 'alice');
INSERT INTO public.participants VALUES ('group-six', 'carol');
INSERT INTO public.participants VALUES ('group-six', 'bob');
INSERT INTO public.participants VALUES ('group-six', 'dave');
INSERT INTO public.participants VALUES ('group-six', 'erin');
INSERT INTO public.participants VALUES ('group-six', 'frank');
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
INSERT INTO public.participants VALUES ('deleted-0', 'erin');
INSERT INTO public.participants VALUES ('deleted-1', 'erin');
INSERT INTO public.participants VALUES ('deleted-2', 'erin');
INSERT INTO public.participants VALUES ('deleted-3', 'erin');
INSERT INTO public.participants VALUES ('deleted-4', 'erin');
INSERT INTO public.participants VALUES ('deleted-5', 'erin');
INSERT INTO public.participants VALUES ('deleted-6', 'erin');
INSERT INTO public.participants VALUES ('deleted-7', 'erin');

INSERT INTO public.schema_version VALUES (1);
INSERT INTO public.schema_version VALUES (2);
INSERT INTO public.schema_version VALUES (3);
INSERT INTO public.schema_version VALUES (4);
INSERT INTO public.schema_version VALUES (5);
INSERT INTO public.schema_version VALUES (6);
INSERT INTO public.schema_version VALUES (7);
INSERT INTO public.schema_version VALUES (8);
INSERT INTO public.schema_version VALUES (9);

INSERT INTO public.users VALUES ('alice', 'Alice', false, true, false, true);
INSERT INTO public.users VALUES ('bob', 'Bob', false, true, false, true);
INSERT INTO public.users VALUES ('carol', 'Carol', false, true, false, true);
INSERT INTO public.users VALUES ('dave', 'Dave', false, true, false, true);
INSERT INTO public.users VALUES ('erin', 'Erin', false, true, false, true);
INSERT INTO public.users VALUES ('frank', 'Frank', false, false, false, true);
INSERT INTO public.users VALUES ('clawd', 'Clawd', true, true, false, true);

SELECT pg_catalog.setval('public.messages_seq_seq', 20, true);

SELECT pg_catalog.setval('public.webhook_outbox_id_seq', 1, false);

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
