import type { Operation } from '../operation';
import { defineResource } from '../resource';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as moderate from './moderate.operation';

const list: Operation[] = [moderate, get, del];

export const { operations, description } = defineResource('text', list, { default: 'get' });
