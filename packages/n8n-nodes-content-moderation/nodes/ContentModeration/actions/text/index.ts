import { defineResource } from '../resource';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as moderate from './moderate.operation';

export const { operations, description } = defineResource('text', [moderate, get, del], { default: 'get' });
