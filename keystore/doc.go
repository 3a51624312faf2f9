// Package keystore keeps a user's secp256k1 account keys on disk, each
// encrypted with a passphrase, so the cowboy CLI can sign transactions
// without the private key ever lying on disk in the clear.
//
// A keystore is a directory (default ~/.cowboy/keys, or $COWBOY_KEYSTORE;
// the CLI's --keystore overrides both), mode 0700, holding one file per
// key named NAME.json, mode 0600. NAME matches [a-zA-Z0-9_-]{1,64};
// dev0…dev9 are reserved for the devnet's well-known keys and cannot be
// created here. Files are written to a temporary file in the same
// directory, synced, then linked into place, so a crash never leaves a
// half-written key and an existing key is never overwritten.
//
// # File format, version 1
//
//	{
//	  "version": 1,
//	  "address": "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF",
//	  "kdf": {"name": "scrypt", "n": 32768, "r": 8, "p": 1, "salt": "<64 hex digits>"},
//	  "cipher": {"name": "aes-256-gcm", "nonce": "<24 hex digits>", "ciphertext": "<96 hex digits>"},
//	  "checksum": "<64 hex digits>"
//	}
//
// The fields:
//
//   - address: the key's account address with the EIP-55 checksum, in the
//     clear so that listing keys and showing an address need no passphrase.
//   - kdf: scrypt(passphrase, salt, n, r, p) derives the 32-byte AES key.
//     The salt is 32 random bytes. Real keys use n = 2^15, r = 8, p = 1
//     (32 MiB, about a tenth of a second); files with n above 2^20 or
//     other parameters out of bounds are refused, so a hostile file cannot
//     make the CLI allocate without limit.
//   - cipher: AES-256-GCM with a random 12-byte nonce seals the 32-byte
//     big-endian private key; ciphertext is the 32 encrypted bytes followed
//     by the 16-byte tag. The additional authenticated data is the ASCII
//     string "cowboy-keystore-v1" followed by the 20 address bytes, so a file
//     whose address was swapped does not open.
//   - checksum: SHA-256 of "cowboy-keystore-v1", a zero byte, the 20 address
//     bytes, n, r and p as 4-byte big-endian integers, the salt, the nonce
//     and the ciphertext. It holds no secret and proves nothing about who
//     wrote the file (GCM does that); it lets the keystore tell a damaged or
//     edited file ("key file is damaged") from a wrong passphrase, which
//     GCM alone cannot.
//
// After decryption the private key's address must equal the stored one.
//
// The package never prints or logs a key, and its errors never quote key
// material: only Export hands the private key back, for the CLI's
// `keys export`.
package keystore
