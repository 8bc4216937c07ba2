/**
 * multipart/form-data decoding (busboy) for routes that take one file and some text fields.
 * API Gateway hands the body over base64-encoded (multipart is a binary media type of the API).
 */
import busboy from 'busboy';
import { invalidInput } from '../errors';
import { HttpError } from './errors';

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

export function parseMultipart(
  raw: Buffer,
  contentType: string,
  fileSpec: { field: string; maxBytes: number },
): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { files: 1, fileSize: fileSpec.maxBytes, fields: 50, fieldSize: 64 * 1024 },
      });
    } catch {
      reject(invalidInput('The multipart body could not be read: the boundary is missing or malformed.'));
      return;
    }
    const fields: Record<string, string> = {};
    let file: UploadedFile | undefined;
    let tooLarge = false;

    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== fileSpec.field) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        tooLarge = true;
      });
      stream.on('end', () => {
        file = { fileName: info.filename ?? '', contentType: info.mimeType, data: Buffer.concat(chunks) };
      });
    });
    parser.on('error', () => reject(invalidInput('The multipart body is malformed.')));
    parser.on('close', () => {
      if (tooLarge) reject(new HttpError(413, `The file exceeds the ${fileSpec.maxBytes}-byte limit.`));
      else if (!file) reject(invalidInput(`${fileSpec.field} is required: send it as a multipart file part.`));
      else resolve({ fields, file });
    });
    parser.end(raw);
  });
}
