package watch

import "syscall"

// deathSignal asks Linux to send the child SIGTERM when robotsmith dies without stopping it
// (SIGKILL, a crash), so that no generator is left serving on its own. (The signal is tied to the
// thread that started the child; the Go runtime ends a thread only when a goroutine locked to it
// exits, which robotsmith never does.)
func deathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }
