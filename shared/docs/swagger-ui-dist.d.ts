declare module 'swagger-ui-dist/absolute-path.js' {
  /** The folder holding swagger-ui-dist's files. */
  export default function getAbsoluteFSPath(): string;
}
