package site

// The files and folders a site's mapping reads (Site.Sources), for a watcher to watch exactly
// those: they are taken from what Open read and from the folders Map walks, never from a list
// of their own.

import (
	"path/filepath"
	"slices"
)

// SourceKind says what a Source is to the site.
type SourceKind uint8

// The kinds of sources.
const (
	// SourceContent is a folder of content that Map walks whole: one of Hugo's content roots
	// (the site's contentDir, a language's own contentDir, a module mount with target content),
	// or Jekyll's source folder.
	SourceContent SourceKind = iota + 1
	// SourceCollection is a folder of Jekyll documents under its source folder: collections_dir,
	// and each collection's _label folder.
	SourceCollection
	// SourceConfig is a configuration file that Open read: Hugo's hugo.* or config.*, a file of
	// its config folder, a theme's or module's; Jekyll's _config.yml.
	SourceConfig
	// SourceConfigDir is a configuration folder that Open reads whole, every file in it: Hugo's
	// config/_default and config/<environment>, a module's config/_default. It may not exist; a
	// file created in it is read.
	SourceConfigDir
	// SourceModule is a file that says where Hugo's modules are: go.mod, the hugo.work
	// workspace and its modules' go.mod files.
	SourceModule
)

var sourceKindNames = [...]string{"", "content", "collection", "config", "config-dir", "module"}

func (k SourceKind) String() string {
	if int(k) < len(sourceKindNames) {
		return sourceKindNames[k]
	}
	return "unknown"
}

// Source is a file, or a folder with everything under it, whose content the site's mapping
// reads: a change in it may change what Map returns, or (a configuration) what Open reads.
type Source struct {
	// Path is the file or folder on disk, named as the site names its files: under Site.Root as
	// given (relative when Root is), or absolute. It may not exist (a language's contentDir not
	// yet made, config/production): one created there is read.
	Path string
	Kind SourceKind
	Dir  bool // a folder: every file under it is read, at any depth
	// Lang is the language of every file in a content folder (Hugo: a language's own contentDir,
	// a mount with lang); "" when its files are of the language their names say, else the
	// default.
	Lang string
	// Collection is a Jekyll collection folder's label ("" for collections_dir itself).
	Collection string
}

// Sources are the files and folders whose content the site's mapping reads, each once, in the
// order they are read: the configuration first (files, then the folders read whole), then what
// Map walks. They change only with the configuration: a site opened again (Open) after its
// configuration changed has its own, which may differ (a language added, a mount moved).
//
// Folders may nest (Jekyll's collections are in its source folder); a folder whose files the
// mapping leaves out (Jekyll's destination, excluded names, names Hugo ignores) is still under
// its Source. For None, a plain folder, there are none: its pages are not read.
func (s *Site) Sources() []Source {
	out := slices.Clone(s.read)
	add := func(src Source) {
		if !slices.ContainsFunc(out, func(o Source) bool { return o.Path == src.Path && o.Kind == src.Kind }) {
			out = append(out, src)
		}
	}
	switch {
	case s.hugo != nil:
		// The roots hugoWalk walks, in its order.
		for _, r := range s.hugo.roots {
			add(Source{Path: r.dir, Kind: SourceContent, Dir: true, Lang: r.lang})
		}
	case s.jek != nil:
		// The folder jekyllGen walks (readDirectories), then the folders of its documents.
		add(Source{Path: s.Content, Kind: SourceContent, Dir: true})
		if cd := s.jek.collectionsDir; cd != "" {
			add(Source{Path: filepath.Join(s.Content, filepath.FromSlash(cd)), Kind: SourceCollection, Dir: true})
		}
		for _, col := range s.jek.collections {
			if col.label == "posts" || col.label == "data" {
				continue // posts are read from every _posts folder (readPosts); data is not read
			}
			add(Source{Path: filepath.Join(s.Content, filepath.FromSlash(s.jek.collectionDir(col))), Kind: SourceCollection, Dir: true, Collection: col.label})
		}
	}
	return out
}

// readSource records a source that Open read (or looked for: a configuration folder).
func (s *Site) readSource(src Source) {
	if !slices.ContainsFunc(s.read, func(o Source) bool { return o.Path == src.Path && o.Kind == src.Kind }) {
		s.read = append(s.read, src)
	}
}
