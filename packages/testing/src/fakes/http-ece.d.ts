// http_ece ships no types. Only what the fake push service and its test call is declared: aes128gcm
// encryption and decryption of a Web Push message body (docs/paging-twilio-push.md#web-push).
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  interface EceParams {
    version: 'aes128gcm' | 'aesgcm';
    /** Decrypting: the receiver's key pair (its public half is `p256dh`). Encrypting: the sender's. */
    privateKey?: ECDH;
    /** The subscription's `auth` secret, base64url. */
    authSecret?: string;
    /** Decrypting: the sender's public key (aesgcm only). Encrypting: the receiver's `p256dh`. */
    dh?: string;
    key?: string;
  }

  const ece: {
    decrypt(buffer: Buffer, params: EceParams): Buffer;
    encrypt(buffer: Buffer, params: EceParams): Buffer;
  };
  export default ece;
}
