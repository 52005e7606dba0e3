// The four values an administrator gets when creating an API user (spec §5.2).
// The glue reads them from SecretStorage on demand; the core never stores them.

export interface Credentials {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly username: string;
  readonly password: string;
}

export type CredentialsProvider = () => Promise<Credentials>;
