export type OpenApiDocument = {
  paths: Record<string, Record<string, { summary?: string; responses?: Record<string, unknown> }>>;
};

export declare const BEGIN: string;
export declare const END: string;
export declare function renderApiTable(doc: OpenApiDocument): string;
export declare function tableIn(markdown: string): string;
export declare function withTable(markdown: string, table: string): string;
