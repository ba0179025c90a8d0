//go:build unix && !linux

package watch

import "syscall"

// deathSignal does nothing: only Linux can tie a child's life to its parent's.
func deathSignal(*syscall.SysProcAttr) {}
