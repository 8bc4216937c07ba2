/**
 * multipart/form-data decoding (busboy) for routes that take one file and some text fields.
 * API Gateway hands the body over base64-encoded (multipart is a binary media type of the API).
 */
import busboy from 'busboy';
import { invalidInput } from '../errors';
import { HttpError } from './errors';
import { repeatedFieldMessage, unknownFieldMessage } from './validation';

export interface UploadedFile {
  fileName: string;
  /** As declared by the client; format checks look at the name and the bytes, not only this. */
  contentType: string;
  data: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  file: UploadedFile;
}

/** How the messages name a multipart body (as validation names a JSON one "the body"). */
export const FORM_DATA = 'form data';

const MAX_FIELDS = 50;
const MAX_FILE_PARTS = 10;

export function parseMultipart(raw: Buffer, contentType: string, fileSpec: { field: string; maxBytes: number }): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // Clients send a file name as UTF-8 bytes (browsers, fetch, curl); busboy's default reads latin1.
        defParamCharset: 'utf8',
        limits: { files: MAX_FILE_PARTS, fileSize: fileSpec.maxBytes, fields: MAX_FIELDS, fieldSize: 64 * 1024 },
      });
    } catch {
      reject(invalidInput('The multipart body could not be read: the boundary is missing or malformed.'));
      return;
    }
    const fields: Record<string, string> = {};
    let file: UploadedFile | undefined;
    let fileSeen = false; // set as the part starts; `file` only once it has been read
    let tooLarge = false;
    // The first reason to refuse the body; parts after it are read and dropped. Nothing is
    // silently ignored: an extra part is refused like an unknown field of a JSON body.
    let refusal: Error | undefined;
    const refuse = (error: Error) => {
      refusal ??= error;
    };

    parser.on('field', (name, value) => {
      // busboy decodes bytes that are not UTF-8 to U+FFFD: refused, as the JSON decoder refuses them.
      if (value.includes('\uFFFD')) refuse(invalidInput(`${name}: is not valid UTF-8.`));
      if (Object.hasOwn(fields, name)) refuse(invalidInput(repeatedFieldMessage(name, FORM_DATA)));
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const unknown = name !== fileSpec.field;
      if (unknown) refuse(invalidInput(unknownFieldMessage(name, FORM_DATA)));
      else if (fileSeen) refuse(invalidInput(`Send one ${fileSpec.field} part only.`));
      // A body cut off inside a part fails the part's stream too: an unheard error event would end the process.
      stream.on('error', () => undefined);
      if (unknown || fileSeen) {
        stream.resume();
        return;
      }
      fileSeen = true;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        tooLarge = true;
      });
      stream.on('end', () => {
        file = { fileName: info.filename ?? '', contentType: info.mimeType, data: Buffer.concat(chunks) };
      });
    });
    parser.on('fieldsLimit', () => refuse(invalidInput(`The ${FORM_DATA} holds more than ${MAX_FIELDS} fields.`)));
    parser.on('filesLimit', () => refuse(invalidInput(`The ${FORM_DATA} holds more than ${MAX_FILE_PARTS} file parts.`)));
    parser.on('error', (error: Error) =>
      reject(
        invalidInput(
          /unexpected end of form/i.test(error.message)
            ? 'The multipart body ends before its closing boundary: it was cut off, or its Content-Length is wrong.'
            : 'The multipart body is malformed.',
        ),
      ),
    );
    parser.on('close', () => {
      if (tooLarge) reject(new HttpError(413, `The file exceeds the ${fileSpec.maxBytes}-byte limit.`));
      else if (refusal) reject(refusal);
      else if (!file) reject(invalidInput(`${fileSpec.field} is required: send it as a multipart file part.`));
      else resolve({ fields, file });
    });
    parser.end(raw);
  });
}
