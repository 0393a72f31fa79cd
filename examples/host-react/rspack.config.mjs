// The partner portal's build: a React 19 app that loads Scholia's annotation remote at run time.
// React is a Module Federation singleton, so the remote renders with the portal's copy.
import path from 'node:path';
import { rspack } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';

const react = { singleton: true, requiredVersion: '^19.0.0' };

export default {
  context: import.meta.dirname,
  mode: 'production',
  devtool: false,
  target: ['web', 'es2022'],
  entry: { main: './src/index.ts' },
  output: {
    path: path.join(import.meta.dirname, 'dist'),
    publicPath: '/',
    filename: '[name].[contenthash:8].js',
    chunkFilename: '[name].[contenthash:8].js',
    clean: true,
  },
  resolve: {
    extensions: ['.ts', '.tsx', '.js'],
    // The sources import siblings as `./x.js` (TypeScript's ESM style).
    extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
  },
  module: {
    rules: [{
      test: /\.tsx?$/,
      loader: 'builtin:swc-loader',
      type: 'javascript/auto',
      options: { jsc: { target: 'es2022', parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } } },
    }],
  },
  plugins: [
    new rspack.HtmlRspackPlugin({ template: './index.html' }),
    new ModuleFederationPlugin({
      name: 'partner_portal',
      // Registered at run time from the Scholia server's manifest (src/scholia-annotation.tsx).
      remotes: {},
      shared: { react, 'react/jsx-runtime': react, 'react-dom': react, 'react-dom/client': react },
      // The portal's React is on screen before the remote loads: the remote must take that copy.
      shareStrategy: 'loaded-first',
      dts: false,
      manifest: false,
    }),
  ],
  performance: { hints: false },
  stats: 'errors-warnings',
};
