// netlify-plugin-robotsmith: a Netlify Build Plugin that runs `robotsmith build` on the publish
// folder once the build command has written it (onPostBuild, before the deploy), so that every
// deploy carries robotsmith's robots tags and _headers.
//
// robotsmith reads the deploy context from the environment Netlify gives the plugin: with
// `previews: noindex` in robotsmith.yaml, a deploy preview or branch deploy (CONTEXT other than
// production) makes every page and file noindex.
//
// The generator already ran as the build command, so robotsmith is run with --no-command (a
// `command:` in robotsmith.yaml is for running robotsmith by hand). Any exit status but 0 fails the
// build, and nothing is deployed: 1 is an error in the site (robotsmith prints it with file and
// line), 2 a wrong input of this plugin.
'use strict'

const path = require('path')

const MODULE = 'github.com/robotsmith/robotsmith'

// platformPackage is the npm package that brings robotsmith's binary for this machine, installed
// with the plugin as one of its optional dependencies (npm installs only the one whose os and cpu
// match), and the binary's path inside it.
function platformPackage() {
  const name = `@robotsmith/cli-${process.platform}-${process.arch}`
  const exe = process.platform === 'win32' ? 'robotsmith.exe' : 'robotsmith'
  return { name, exe }
}

// bundled is the binary of the platform package, or undefined when none is installed (the plugin
// copied into a site's repository, or a machine no release binary is built for).
function bundled() {
  const { name, exe } = platformPackage()
  try {
    return path.join(path.dirname(require.resolve(`${name}/package.json`)), 'bin', exe)
  } catch {
    return undefined
  }
}

// robotsmith is the program to run and the arguments that come before robotsmith's own: the version
// input when it is given (go run), else the binary input, else the binary the plugin's own platform
// package brought, else robotsmith on PATH.
function robotsmith(inputs) {
  if (inputs.version) {
    return { file: 'go', pre: ['run', `${MODULE}@${inputs.version}`] }
  }
  if (inputs.binary) {
    // A path (it holds a slash) is relative to the base directory; a bare name is looked up on PATH.
    return { file: inputs.binary.includes('/') ? path.resolve(inputs.binary) : inputs.binary, pre: [] }
  }
  return { file: bundled() || 'robotsmith', pre: [] }
}

// args are robotsmith's arguments: build the site, its output being Netlify's publish folder.
function args(inputs, constants) {
  const a = ['build', '--no-command', '--output', path.resolve(constants.PUBLISH_DIR)]
  if (inputs.config) {
    a.push('--config', path.resolve(inputs.config))
  }
  a.push(path.resolve(inputs.site || '.'))
  return a
}

module.exports = {
  async onPostBuild({ constants, inputs, utils }) {
    const { file, pre } = robotsmith(inputs)
    // utils.run prints robotsmith's output in the build log as it comes.
    const result = await utils.run(file, [...pre, ...args(inputs, constants)], { reject: false, preferLocal: false })
    if (result.exitCode === undefined) {
      return utils.build.failBuild(
        `robotsmith could not be started (${result.shortMessage}): put robotsmith on PATH, or set the plugin's binary (or version) input`,
      )
    }
    if (result.exitCode !== 0) {
      return utils.build.failBuild(`robotsmith exited with status ${result.exitCode}; its errors are above (file:line: message)`)
    }
    const summary = (result.stdout || '').split('\n').filter(Boolean).slice(0, 3).join('; ')
    utils.status.show({ title: 'robotsmith', summary: summary || 'done' })
  },
}
