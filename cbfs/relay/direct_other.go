//go:build !linux

package relay

// oDirect is 0 where O_DIRECT is not used: shard files are written through
// the page cache.
const oDirect = 0
