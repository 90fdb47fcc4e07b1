-- Single sign-on with OpenID Connect (docs/sso.md).

-- People created by their first SSO sign-in; they have no password.
alter table users drop constraint users_auth_source_check;
alter table users add constraint users_auth_source_check check (auth_source in ('local', 'chat', 'oidc'));

-- Which provider account is which user. The subject, not the e-mail, is the provider's stable name for a
-- person: once linked, a later sign-in finds the user even after the e-mail changed at the provider, and
-- a different account that shows up with the same e-mail cannot take the user over.
create table oidc_identities (
  issuer text not null,
  subject text not null,
  user_id uuid not null unique references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (issuer, subject)
);

-- Sign-ins started and not yet finished. The state is stored only as its SHA-256 digest (like every
-- token); finishing deletes the row, so a state works once. Rows older than their expiry are removed
-- when the next sign-in starts.
create table oidc_sign_ins (
  state_hash bytea primary key,
  nonce text not null,
  code_verifier text not null,
  expires_at timestamptz not null
);
