package mount

import "os"

// currentUID is the test process's user id.
func currentUID() int { return os.Getuid() }
