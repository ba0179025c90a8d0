package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/robotsmith/robotsmith/pipeline"
	"github.com/robotsmith/robotsmith/watch"
)

// exitStatus ends a run with this status, everything there was to say said: watch's end (0 when a
// signal stopped it, as it should; its CMD's own status when CMD ended it).
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// runWatch is `robotsmith watch [SITE] [-- CMD ARGS...]` (SPEC §8).
func runWatch(ctx context.Context, c *cli, o *options, args []string) error {
	pos, cmdline, dashes := splitCommand(args)
	if len(pos) > 1 {
		return &usageError{"watch", fmt.Sprintf("one SITE at most, got %q (the generator's command goes after --)", pos)}
	}
	if dashes && len(cmdline) == 0 {
		return &usageError{"watch", "no command after --: robotsmith watch -- hugo server --disableFastRender"}
	}
	// A flag the installed generator no longer has would end it at once with its whole usage, and
	// the watch with it: one line says what replaced it, and the command runs as meant.
	// Its help not run (the generator not installed?), the command is left as given: starting it
	// says why.
	var notes []string
	if moved, args, err := watch.MovedFlags(cmdline, watch.RunHelp(ctx)); err == nil {
		for _, m := range moved {
			notes = append(notes, m.Line)
		}
		cmdline = args
	}
	more, err := checkGenerator(cmdline, o.serve != "")
	if err != nil {
		return &usageError{"watch", err.Error()}
	}
	notes = append(notes, more...)
	opt := pipeline.Options{Config: o.config, Output: o.output, Env: c.getenv}
	if len(pos) == 1 {
		opt.Root = pos[0]
	}
	own := watch.NewOwn()
	l, err := pipeline.NewLive(ctx, opt, own)
	if err != nil {
		printErrors(c.stderr, pipeline.Problems(err))
		fmt.Fprintln(c.stderr, "robotsmith: the watch could not start")
		return errFailed
	}
	for _, n := range notes {
		fmt.Fprintf(c.stderr, "robotsmith: %s\n", n)
	}
	w, err := c.watcher(l, own, o)
	if err != nil {
		return err
	}
	defer func() { w.Close() }()

	// The preview listens before the generator starts, so that an address in use ends the watch
	// before anything runs.
	var pv *preview
	if o.serve != "" {
		if pv, err = startPreview(o.serve, l.Output()); err != nil {
			fmt.Fprintf(c.stderr, "robotsmith: --serve: %v\n", err)
			fmt.Fprintln(c.stderr, "robotsmith: the watch could not start")
			return errFailed
		}
		defer pv.close()
		if !o.quiet {
			fmt.Fprintf(c.stdout, "robotsmith: serving %s at %s, each page reloading once robotsmith has fixed it\n", filepath.ToSlash(l.Output()), pv.URL())
		}
	}
	// shown shows an update and reloads the preview's pages.
	shown := func(u *pipeline.Update) {
		c.show(u, o)
		if pv != nil {
			pv.after(l, u)
		}
	}

	var child *watch.Child
	if len(cmdline) > 0 {
		cmd := exec.Command(cmdline[0], cmdline[1:]...)
		cmd.Dir = firstOf(opt.Root, ".")
		cmd.Stdout, cmd.Stderr = c.stdout, c.stderr
		if child, err = watch.StartChild(cmd); err != nil {
			fmt.Fprintf(c.stderr, "robotsmith: %v\n", err)
			return errFailed
		}
	}

	if exists(l.Output()) {
		shown(l.Build(ctx))
	} else if !o.quiet {
		fmt.Fprintf(c.stdout, "robotsmith: waiting for %s to be written\n", filepath.ToSlash(l.Output()))
	}

	// The loop ends when a signal comes (ctx) or when the child exits (loop).
	loop, stop := context.WithCancel(ctx)
	defer stop()
	if child != nil {
		go func() {
			select {
			case <-child.Done():
				stop()
			case <-loop.Done():
			}
		}()
	}
	retry := false
	for {
		next, cancel := loop, context.CancelFunc(func() {})
		if retry {
			// Files changed while read wait for the generator to be quiet, then go again.
			next, cancel = context.WithTimeout(loop, watch.DefaultQuiet)
		}
		b, err := w.Next(next)
		cancel()
		switch {
		case err == nil:
		case loop.Err() != nil:
			return c.endWatch(ctx, child, w, l, o)
		case retry && errors.Is(err, context.DeadlineExceeded):
			b = watch.Batch{}
		default:
			return err
		}
		u := l.Apply(ctx, b)
		shown(u)
		retry = u.Retry
		if u.Roots {
			// The configuration moved a folder: watch the new ones, and look at everything, since
			// changes between the two watchers are not seen.
			w.Close()
			if w, err = c.watcher(l, own, o); err != nil {
				return err
			}
			shown(l.Apply(ctx, watch.Batch{Lost: true}))
		}
	}
}

// endWatch ends the watch: after a signal, it passes the signal to the child and waits for it;
// after the child exited by itself, it takes in the child's last writes. The exit status is the
// child's (0 when it stopped as asked), or 0 without a child.
func (c *cli) endWatch(ctx context.Context, child *watch.Child, w *watch.Watcher, l *pipeline.Live, o *options) error {
	if child == nil {
		return exitStatus(0)
	}
	if ctx.Err() != nil {
		sig := os.Signal(os.Interrupt)
		var in *interrupted
		if errors.As(context.Cause(ctx), &in) {
			sig = in.sig
		}
		if err := child.Interrupt(sig, watch.DefaultGrace); err != nil {
			fmt.Fprintf(c.stderr, "robotsmith: %v\n", err)
		}
	} else {
		// The child's last burst of writes: wait for it to settle, and process it.
		for {
			last, cancel := context.WithTimeout(context.Background(), 2*watch.DefaultQuiet)
			b, err := w.Next(last)
			cancel()
			if err != nil {
				break
			}
			c.show(l.Apply(context.Background(), b), o)
		}
	}
	e := child.Wait()
	if s := e.Status(); s != 0 || e.Asked == nil || e.Killed {
		fmt.Fprintf(c.stderr, "robotsmith: the generator ended (%s); robotsmith watch exits with status %d\n", e, s)
	}
	return exitStatus(e.Status())
}

// watcher starts watching what l says, polling when asked (or when the system cannot deliver
// events), and says what it watches.
func (c *cli) watcher(l *pipeline.Live, own *watch.Own, o *options) (*watch.Watcher, error) {
	roots, skip := l.Watch()
	w, err := watch.New(watch.Options{Roots: roots, Skip: skip, Own: own, Poll: o.poll})
	if err != nil {
		return nil, err
	}
	if !o.quiet {
		how := ""
		if w.Polling() {
			how = ", polling"
		}
		// What is there, and the output folder the generator is to write: a source not made yet
		// (a language's folder, config/production) is watched, but naming it would mislead.
		out, _ := filepath.Abs(l.Output())
		var names []string
		for _, r := range roots {
			if exists(r) || r == out {
				names = append(names, shortPath(r))
			}
		}
		fmt.Fprintf(c.stdout, "robotsmith: watching %s%s (Ctrl-C stops)\n", strings.Join(names, ", "), how)
	}
	return w, nil
}

// show prints what an update did: its errors and, unless -q, its warnings and notes on stderr, and
// its one line on stdout (after the first pass, build's summary too; -v lists the files written).
func (c *cli) show(u *pipeline.Update, o *options) {
	printErrors(c.stderr, pipeline.Problems(errors.Join(u.Errs...)))
	if o.quiet {
		return
	}
	for _, n := range u.Notes {
		fmt.Fprintf(c.stderr, "robotsmith: %s\n", n)
	}
	if u.Report != nil && u.Why == pipeline.FirstPass && len(u.Errs) == 0 {
		fmt.Fprint(c.stdout, u.Report.Summary(true, o.verbose)) // its warnings included
	} else {
		for _, w := range u.Warnings {
			fmt.Fprintln(c.stderr, w.Text())
		}
		for _, f := range u.Findings {
			fmt.Fprintln(c.stderr, f.Text())
		}
	}
	fmt.Fprintf(c.stdout, "%s %s\n", time.Now().Format("15:04:05"), u.Line())
	if o.verbose {
		for _, f := range u.Wrote {
			fmt.Fprintf(c.stdout, "  wrote %s\n", f)
		}
		if len(u.Flips) > 5 {
			for _, f := range u.Flips {
				fmt.Fprintf(c.stdout, "  %s\n", f)
			}
		}
	}
}

// splitCommand splits watch's arguments at the "--" that parse kept: SITE before it, CMD ARGS
// after.
func splitCommand(args []string) (pos, cmdline []string, dashes bool) {
	i := slices.Index(args, "--")
	if i < 0 {
		return args, nil, false
	}
	return args[:i], args[i+1:], true
}

// checkGenerator looks at the generator's command line: an error for a mode whose pages never
// reach the disk (robotsmith has nothing to fix), notes for one robotsmith can follow only in
// part. It knows Hugo's and Jekyll's flags (watch/generators.md); anything else passes. serving
// is --serve: robotsmith's preview reloads the pages once it has fixed them.
func checkGenerator(args []string, serving bool) (notes []string, err error) {
	if len(args) == 0 {
		return nil, nil
	}
	name := strings.TrimSuffix(filepath.Base(args[0]), ".exe")
	args = args[1:]
	switch name {
	case "hugo":
		if word(args, "server", "serve") {
			switch {
			case boolFlagSet(args, "renderToMemory", 'M'):
				return nil, errors.New("hugo server --renderToMemory keeps the pages in memory, where robotsmith cannot fix them: leave it out (hugo server writes to disk by default)")
			case boolFlagSet(args, "renderStaticToDisk", 0):
				return nil, errors.New("hugo server --renderStaticToDisk keeps the pages in memory (only static files go to disk), where robotsmith cannot fix them: leave it out")
			}
			// hugo server writes its live-reload script into every page it writes to disk
			// (livereload.js from its own port): a page robotsmith serves would reload as soon as
			// Hugo writes it, before robotsmith has fixed it.
			if serving && !boolFlagSet(args, "disableLiveReload", 0) {
				notes = append(notes, "hugo server writes its own live-reload script into every page, which reloads the browser as soon as Hugo writes, before robotsmith has fixed the page: with --serve, add --disableLiveReload (or run hugo --watch)")
			}
			if !boolFlagSet(args, "disableFastRender", 0) {
				notes = append(notes, "hugo server renders in fast render mode: after a change it writes only the pages last visited, and the others when a browser asks for them, which may show them before robotsmith has fixed them (reload); hugo server --disableFastRender writes every page at once")
			}
		} else if word(args, "new", "mod", "config", "env", "version", "list", "deploy", "import", "convert", "gen", "completion", "help") {
			return nil, fmt.Errorf("%s is not one of Hugo's watch modes: use hugo server --disableFastRender or hugo --watch", strings.Join(append([]string{"hugo"}, args...), " "))
		} else if !boolFlagSet(args, "watch", 'w') {
			notes = append(notes, "hugo without --watch builds once and exits, and robotsmith watch with it: use hugo server --disableFastRender or hugo --watch")
		}
	case "jekyll":
		switch {
		case word(args, "serve", "server", "s"):
			if boolFlagSet(args, "no-watch", 0) {
				notes = append(notes, "jekyll serve --no-watch does not rebuild on changes: leave --no-watch out")
			}
		case word(args, "build", "b"):
			if !boolFlagSet(args, "watch", 'w') {
				notes = append(notes, "jekyll build without --watch builds once and exits, and robotsmith watch with it: use jekyll build --watch or jekyll serve")
			}
		}
	default:
		return nil, nil
	}
	if valueFlagSet(args, "destination", 'd') {
		notes = append(notes, name+" --destination writes elsewhere than the output folder robotsmith watches: give robotsmith watch the same folder with --output")
	}
	return notes, nil
}

// word reports whether one of the arguments is one of the words (a subcommand).
func word(args []string, words ...string) bool {
	return slices.ContainsFunc(args, func(a string) bool { return slices.Contains(words, a) })
}

// boolFlagSet reports whether a boolean flag is set to true, as cobra (Hugo) and Ruby's
// OptionParser (Jekyll) read it: --name, --name=true, or its one-letter form short (0 for none),
// alone (-M) or among other one-letter flags (-DM).
func boolFlagSet(args []string, name string, short rune) bool {
	set := false
	for _, a := range args {
		if a == "--" {
			break
		}
		switch {
		case a == "--"+name:
			set = true
		case strings.HasPrefix(a, "--"+name+"="):
			v := strings.ToLower(strings.TrimPrefix(a, "--"+name+"="))
			set = v == "true" || v == "1" || v == "t"
		case short != 0 && len(a) >= 2 && a[0] == '-' && a[1] != '-' && !strings.Contains(a, "=") && isLetters(a[1:]) && strings.ContainsRune(a[1:], short):
			set = true
		case short != 0 && a == "-"+string(short)+"=true":
			set = true
		}
	}
	return set
}

// valueFlagSet reports whether a flag that takes a value is given: --name X, --name=X, -s X, -sX.
func valueFlagSet(args []string, name string, short rune) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--"+name || strings.HasPrefix(a, "--"+name+"=") ||
			short != 0 && strings.HasPrefix(a, "-"+string(short)) && !strings.HasPrefix(a, "--") {
			return true
		}
	}
	return false
}

func isLetters(s string) bool {
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return false
		}
	}
	return s != ""
}

// shortPath is p relative to the working folder when it is inside it, slash-separated.
func shortPath(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			p = r
		}
	}
	return filepath.ToSlash(p)
}
