package relay

import "syscall"

// oDirect is the open flag for writes that bypass the page cache (files.go,
// shardFiles.write).
const oDirect = syscall.O_DIRECT
