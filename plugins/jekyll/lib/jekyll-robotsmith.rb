# frozen_string_literal: true

# robotsmith for Jekyll: runs `robotsmith build` on the site's destination folder every time Jekyll
# has written it, so that `jekyll build`, `jekyll serve` and every regeneration of `--watch` end with
# robotsmith's robots tags and _headers.
#
# Install, either way:
# - as the gem jekyll-robotsmith: add it to the site's Gemfile (group :jekyll_plugins) or to
#   `plugins:` in _config.yml. Its platform variants bring robotsmith's binary for the machine;
# - or copy this file into the site's _plugins/ folder, and put robotsmith on PATH.
#
# Optional settings, in _config.yml:
#
#   robotsmith:
#     binary: bin/robotsmith     # the executable: a path relative to the site, or a name on PATH
#     config: robotsmith.yaml    # robotsmith's configuration (default: robotsmith.yaml etc. in the site)
#
# The binary is the one `binary:` names, else the one the gem brought, else robotsmith on PATH.
#
# robotsmith runs with --no-command (Jekyll is the generator here), with -q when Jekyll runs with
# --quiet, and with -v when Jekyll runs with --verbose. An error fails `jekyll build` (exit status
# 1); under --watch and serve, Jekyll prints it and goes on watching, and the next regeneration
# that fixes it runs robotsmith again.
#
# The plugin also keeps robotsmith's own files out of the destination: Jekyll copies every file that
# is not excluded, robotsmith.yaml and a binary kept in the site's repository (bin/robotsmith)
# included, and the host would serve them.
module Robotsmith
  CONFIG_NAMES = %w[robotsmith.yaml robotsmith.yml robotsmith.toml robotsmith.json].freeze

  # The robotsmith: mapping of _config.yml.
  def self.settings(site)
    s = site.config["robotsmith"] || {}
    unless s.is_a?(Hash)
      raise Jekyll::Errors::FatalException, "robotsmith: _config.yml: robotsmith: must be a mapping (binary:, config:)"
    end

    s
  end

  # The executable: the one binary: names (a path, holding a slash, is relative to the site; a bare
  # name is looked up on PATH), else the one this gem brought, else robotsmith on PATH.
  def self.binary(site)
    bin = settings(site)["binary"]
    return bundled || "robotsmith" if bin.nil?

    bin = bin.to_s
    bin.include?("/") ? File.expand_path(bin, site.source) : bin
  end

  # The binary a platform variant of the jekyll-robotsmith gem carries in its exe/ folder; nil when
  # the plugin was copied into _plugins/ or the gem is the one without a binary.
  def self.bundled
    spec = Gem.loaded_specs["jekyll-robotsmith"]
    return nil if spec.nil?

    exe = File.join(spec.gem_dir, "exe", Gem.win_platform? ? "robotsmith.exe" : "robotsmith")
    File.executable?(exe) ? exe : nil
  end

  # The files of robotsmith's that live in the site's source and that Jekyll must not publish: its
  # configuration, and the binary when it is kept in the site's repository.
  def self.excluded(site)
    names = CONFIG_NAMES.dup
    bin = binary(site)
    inside = File.join(File.expand_path(site.source), "")
    names << bin.delete_prefix(inside) if bin.start_with?(inside)
    names
  end

  # The command line that builds the site's destination.
  def self.command(site)
    s = settings(site)
    bin = binary(site)
    args = [bin, "build", "--no-command", "--output", site.dest]
    args += ["--config", File.expand_path(s["config"].to_s, site.source)] if s["config"]
    args << "-q" if site.config["quiet"]
    args << "-v" if site.config["verbose"]
    args << site.source
  end

  def self.run(site)
    cmd = command(site)
    Jekyll.logger.info "robotsmith:", "build #{site.dest}"
    ok = system(*cmd)
    if ok.nil?
      raise Jekyll::Errors::FatalException,
            "robotsmith: cannot run #{cmd.first}: put robotsmith on PATH or set robotsmith: {binary: ...} in _config.yml"
    end
    return if ok

    raise Jekyll::Errors::FatalException,
          "robotsmith: build failed (exit status #{$?.exitstatus}); its errors are above (file:line: message)"
  end
end

Jekyll::Hooks.register :site, :after_init do |site|
  site.exclude |= Robotsmith.excluded(site)
end

Jekyll::Hooks.register :site, :post_write do |site|
  Robotsmith.run(site)
end
