// Package safefs is how robotsmith touches the site's files safely: it reads
// only regular files, with a bound on their size, and it replaces many files
// of the output folder as one change that a kill, a power loss, a failure or
// Ctrl-C can never leave half done (SPEC §10).
//
// Usage (a build):
//
//	tx, err := safefs.Begin(ctx, "public") // locks the folder; undoes a killed run's leftovers
//	if err != nil {
//		return err
//	}
//	defer tx.Abort() // once Commit has run, does nothing
//	root, err := os.OpenRoot("public")
//	...
//	f, fi, err := safefs.OpenIn(root, "blog/index.html") // regular files only, no link followed
//	src, err := safefs.ReadAll(f, fi, maxPage)           // bounded
//	...
//	err = tx.WriteFile("blog/index.html", fi, newContent) // to a temporary file beside it
//	...
//	err = tx.Commit(ctx) // every file in place, or (an error) none
//
// Every other command calls Recover(ctx, dir) before it reads the folder.
//
// # How a transaction works
//
// Create writes each file's new content to a temporary file beside it
// (".robotsmith-<n>.tmp" in the same folder, so that the rename stays in one
// file system). Before it creates the file, it appends a tmp record naming it
// to the journal, ".robotsmith-journal" in the folder's root; so whatever
// moment a run dies at, no temporary file exists that the journal does not
// name. Commit then
//
//  1. sorts the files by folder (a name created twice is found here, and
//     undoes the build), appends the plan (for each file: its name, and the
//     inode and modification time of its temporary file) and a commit record
//     with a checksum, and syncs the journal and the folder: one fsync of a
//     small file and one of a folder, the only syncs a build does;
//  2. for each file, makes a second link to the original
//     (".robotsmith-<n>.old") and renames the temporary file over the name, so
//     the name always holds a whole file; a new file is linked into place,
//     which fails if another process created it meanwhile (the files in any
//     order, on one goroutine a CPU, each taking a run of one folder's);
//  3. once every file is in place, renames the journal to
//     ".robotsmith-done": the commit point;
//  4. removes the originals' second links, then the done marker.
//
// A failure in step 1 or 2, or ctx ending, undoes: each replaced original is
// renamed back over its name, every temporary file and the journal are
// removed, and Commit returns the cause. A file that another process
// rewrote, replaced or deleted between robotsmith reading it and its rename
// in step 2 is ErrChanged, and it too undoes the build (a page deleted
// mid-build does not come back). The original is checked before the rename
// and again after it: a generator that opened it in place (O_TRUNC) in
// between wrote into what is then only the second link, and the undo puts
// its file back.
//
// The next run of any command (Begin, Recover) finds what a killed run left:
// a done marker is finished (its second links removed); a journal with a
// valid commit record is undone as above; a journal without one renamed
// nothing, so only its temporary files are removed. Undoing never touches a
// file that no longer has the inode and time robotsmith wrote: a generator
// that ran again in between (hugo, then robotsmith build) keeps its output.
// The folder is locked (flock on the folder itself, so no lock file is left
// to be deployed) from Begin to the end of Commit, and for Recover.
//
// # Why it is safe, and cheap
//
// A kill (SIGKILL, the OOM killer, a CI job's timeout) ends the process but
// not the kernel: every write and rename that returned is in the page cache
// and seen by the next run, with no sync at all. Renames are atomic, so each
// name holds the old file or the new one; the tmp records name every
// temporary file; steps 1–4 are ordered by the program alone.
//
// A power loss loses what was not on disk. Two facts make the design hold
// with one journal sync instead of one sync per file (which costs as much
// again as the whole build, or more: measured below):
//
//   - Journalling file systems (ext4, XFS, btrfs) commit metadata changes in
//     the order they were made, a transaction at a time: after a power loss
//     the folder is as it was at some moment of the run, never with a later
//     rename and without an earlier one. So the synced journal is there before
//     any rename is, and the done marker's rename only after every file's.
//   - ext4 (data=ordered with auto_da_alloc, the default) and btrfs write a
//     file's data before a rename that replaces another file with it reaches
//     the disk ("replace-via-rename"), so a renamed page is whole. A new file
//     gets no such ordering: Close syncs new files (only _headers, when a site
//     has none yet).
//
// Undoing needs the originals, which the generator wrote a moment earlier and
// did not sync either: a power loss can leave them empty whether robotsmith
// ran or not, and the next run puts back what the disk has. On XFS and
// file systems without replace-via-rename ordering a power loss during the
// renames can leave renamed pages empty; only syncing every page's data
// first (a syncfs) would prevent that, at the cost measured below. After a
// power loss, a build that had returned may be undone (as a database with
// asynchronous commit loses its last transaction), never half kept. And a
// power loss while temporary files are written (before the plan is synced)
// can keep a temporary file and lose the tmp record naming it: nothing was
// renamed, so the site is as it was, but the file is left. Every name
// robotsmith makes starts with Prefix, so the walk of the output, which a
// build makes anyway with the folder locked, removes any it meets.
//
// BenchmarkReplace measures it: for 10,000 files, safefs costs 1.02 times the
// floor (a temporary file and a rename each), one syncfs before the renames
// 1.60 times, an fsync per file 3.3 times (one run on a busy 2-core machine).
// The site-level benchmark's floor+tx step measures it on a generated site;
// docs/internals/performance.md ("What the transaction costs") has both
// commands and what they gave.
//
// In memory, a transaction keeps 64 bytes a file until it commits (the
// name, the identities of the original and of the temporary file, the
// original's size, a number and three flags; the name is the caller's
// string, not a copy), and writing a file's tmp record allocates nothing:
// TestTxHeapPerFile holds it there, and BenchmarkTxPerFile reports it for
// 100,000 files.
//
// # Reading
//
// Open and ReadFile (input outside the output, such as the configuration)
// follow symbolic links; OpenIn (the output folder) does not: a link is
// ErrSymlink, and ResolveLink says where it leads (inside the folder: its
// target is processed as itself; outside: skipped with a warning). All of
// them open with O_NONBLOCK and check the opened file with fstat: a FIFO,
// socket or device is ErrNotRegular and never read, so a FIFO named
// page.html cannot hang a build. ReadAll stops at its limit, so a link to
// /dev/zero or a 10 GB file cannot exhaust memory.
package safefs
