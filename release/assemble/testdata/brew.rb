# frozen_string_literal: true

# A stand-in for the part of Homebrew's Formula DSL that robotsmith's formula uses, so that a test can
# run the formula where brew is not installed: it loads the formula, records its stanzas, then runs
# its install block (go build, for real, in the source folder) and its test block (the built
# robotsmith, for real, in a folder of its own). What it proves is the formula's Ruby and commands;
# what Homebrew itself does around them (fetching the tag, its sandbox) is not proven here.
#
# Usage: ruby brew.rb FORMULA SOURCE PREFIX VERSION   (prints the stanzas as JSON on its last line)
require "json"
require "open3"
require "pathname"

# Homebrew's own Pathname#write makes the parent folders and refuses to overwrite a file.
class Pathname
  def write(content)
    raise "Will not overwrite #{self}" if exist?

    dirname.mkpath
    File.write(self, content)
  end
end

class Formula
  class << self
    attr_reader :test_block

    def stanzas
      @stanzas ||= { "depends_on" => [] }
    end

    def desc(text) = stanzas["desc"] = text
    def homepage(url) = stanzas["homepage"] = url
    def license(name) = stanzas["license"] = name
    def url(url, **opts) = stanzas["url"] = { "url" => url }.merge(opts.transform_keys(&:to_s))
    def head(url, **opts) = stanzas["head"] = { "url" => url }.merge(opts.transform_keys(&:to_s))
    def depends_on(dep) = stanzas["depends_on"] << (dep.is_a?(Hash) ? dep.transform_values(&:to_s) : dep)

    def test(&block)
      @test_block = block
    end
  end

  attr_reader :bin, :testpath, :version

  def initialize(source, prefix, version)
    @source = source
    @bin = Pathname(prefix)/"bin"
    @testpath = Pathname(prefix)/"test"
    @version = version
    @testpath.mkpath
  end

  # Homebrew's std_go_args: the output in bin/, -trimpath, and the ldflags joined.
  def std_go_args(output: bin/"robotsmith", ldflags: nil)
    args = ["-trimpath", "-o=#{output}"]
    args << "-ldflags=#{Array(ldflags).join(" ")}" if ldflags
    args
  end

  def system(cmd, *args)
    dir = cmd.to_s == "go" ? @source : @testpath.to_s
    ok = Kernel.system(cmd.to_s, *args.map(&:to_s), chdir: dir)
    raise "#{cmd} #{args.join(" ")} failed" unless ok
  end

  def shell_output(cmd)
    out, status = Open3.capture2e(cmd, chdir: @testpath.to_s)
    raise "#{cmd} failed: #{out}" unless status.success?

    out
  end

  def assert_match(pattern, text)
    ok = pattern.is_a?(Regexp) ? pattern.match?(text) : text.include?(pattern)
    raise "#{pattern.inspect} is not in #{text.inspect}" unless ok
  end
end

formula, source, prefix, version = ARGV
load formula
f = Robotsmith.new(source, prefix, version)
f.install
f.instance_eval(&Robotsmith.test_block)
puts JSON.generate(Robotsmith.stanzas)
