/** Types of bench/programs.mjs, for the tests that import it. */
export declare const XCAT_PROGRAM: string;
export declare const XCAT_NODES_PROGRAM: string;
export declare const FLOOR_PROGRAM: string;
export declare const XCAT_NODESET_PROGRAM: string;
export declare const XCAT_NODESET_NATIVE_PROGRAM: string;
export declare function nodeSetYamlFiles(nodes: number, setSize: number): Record<string, string>;
