# Inline blobs by multihash (technical spec §7): put, get, delete, the
# 64 KiB cap and the refusals of malformed hashes.
from cowboy_sdk import actor, put_blob, get_blob, delete_blob, blob_hash


@actor
class Blobs:
    def main(self):
        small = b"hello, blob"
        h = put_blob(small)
        print(len(h), h[:2].hex(), h == blob_hash(small))
        print(get_blob(h))
        # The same bytes give the same hash; storing twice keeps one copy.
        print(put_blob(bytearray(small)) == h)
        big = b"x" * 65536
        hb = put_blob(big)
        print(len(get_blob(hb)), get_blob(hb) == big)
        try:
            put_blob(big + b"!")
        except ValueError as e:
            print("ValueError", str(e)[:43])
        # A 65 KiB file elsewhere is referenced by its hash, not stored.
        ext = blob_hash(big + b"!")
        print(get_blob(ext))
        sha = bytes([0x12, 32]) + b"\0" * 32
        print(get_blob(sha))
        for bad in [b"", h[:33], bytes([0x13]) + h[1:]]:
            try:
                get_blob(bad)
            except ValueError as e:
                print("ValueError", len(bad))
        try:
            put_blob("text")
        except TypeError as e:
            print("TypeError", e)
        delete_blob(h)
        print(get_blob(h))
        return h
